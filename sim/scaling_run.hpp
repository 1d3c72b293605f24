// A scenario simulated on one or several core counts (`sim --cores 1,2,4`), one process per
// simulation, each run twice on request to check that the simulation is deterministic.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim_summary.hpp"

namespace twinsched {

/// Runs one simulation; `what` names it for a progress line ("forward on 2 cores"). simulate()
/// itself, or a caller's wrapper that shows progress or checks the scenario first.
using simulate_fn = std::function<sim_result(const scenario& s, const sim_options& o, const std::string& what)>;

/// `s` simulated on each of `cores` modeled cores (0: the machine's own count), with one worker
/// per core unless `keep_workers` (or the count is 0); with `twice`, each simulation runs
/// twice and the first difference between the two is kept (sim_run::difference). `done(runs)`
/// is called as each simulation ends, with the runs so far (a table prints its row then).
std::vector<sim_run> simulate_on_cores(const scenario& s, const sim_options& o, const std::vector<std::uint32_t>& cores,
                                       bool keep_workers, bool twice, const simulate_fn& simulate,
                                       const std::function<void(const std::vector<sim_run>&)>& done);

}  // namespace twinsched
