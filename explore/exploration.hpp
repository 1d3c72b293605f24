// `twinsched explore` as one call: the unperturbed run that sizes the bounds, the search, the failing run traced again, and its shrinking, reported as the command prints them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "sim/run_sim.hpp"

namespace twinsched::explore {

struct exploration {
  sim_options base;              ///< cores, machine, interleave; time_limit_s if sim_limit_given
  bool sim_limit_given = false;  ///< else the limit is sized from the unperturbed run
  schedule_spec spec;            ///< random or pct; the first seed is spec.seed
  std::uint64_t runs = 1000;
  unsigned jobs = 1;
  double wall_limit_s = 0;  ///< start no run after this many wall-clock seconds (0: none)
  bool shrink = false;
  std::string dir;            ///< the folder for the scenario and the traces (its path checked by the caller)
  std::string scenario_file;  ///< dir + "/scenario.toml": what the printed reproductions run
  /// About once a second during the search; then progress_end once it is over.
  std::function<void(std::size_t done, std::size_t failures)> progress;
  std::function<void()> progress_end;
};

/// The scenario's run under each schedule, every check on (the caller sets s.sched.checks):
/// prints the plan to `err` and the verdict to `out` (the first failure with its
/// reproduction, and with `shrink` the fewest preemptions that still break the same
/// invariant, each traced into `dir`). Returns 0 if no schedule broke an invariant, else 1.
int run_exploration(const scenario& s, const exploration& e, std::ostream& out, std::ostream& err);

/// The command line that reproduces the schedule `o` on the scenario explore wrote out.
std::string repro_command(const std::string& scenario_file, const sim_options& o);

}  // namespace twinsched::explore
