// Running a sweep's cells on this machine: simulations `jobs` processes at a time, real runs one at a time.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "sweep/sweep_row.hpp"

namespace twinsched {

struct sweep_run_hooks {
  /// Called with each cell's row as soon as it ends (in the order cells end).
  std::function<void(const sweep_row&)> on_row;
  /// Called about four times a second while cells run, and once at the end.
  std::function<void()> tick;
};

/// Runs `cells`: sim cells first, up to `jobs` at once, on runner processes that simulate cell
/// after cell of one core count in one engine (sim_batch); then real cells one after another
/// in this process, so that no real run shares the machine with another cell (the runners
/// have ended by then). A cell that cannot run becomes an ERROR row.
void run_cells(const std::vector<const sweep_cell*>& cells, unsigned jobs, const sweep_run_hooks& hooks);

}  // namespace twinsched
