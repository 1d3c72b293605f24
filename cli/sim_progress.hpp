// A simulation with a progress line that says how far it has got: simulated time, messages, replayed turns.
#pragma once
#include <string>

#include "cli/progress.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::cli {

/// simulate(s, o), updating `p` with "`what`: simulated 12.3 ms, 4.1 M of 12.0 M messages,
/// 2.4 s" (a replay adds "9.0 k of 40.0 k recorded turns") while the child runs. The child
/// reports through run_sim.hpp's progress_of; this thread polls it, never a ticker thread
/// (no thread runs while simulate() forks).
sim_result simulate_with_progress(progress& p, const scenario& s, const sim_options& o, const std::string& what);
/// The status simulate_with_progress shows, after "`what`: " and before the elapsed time.
std::string sim_status(const sim_progress& sp);

}  // namespace twinsched::cli
