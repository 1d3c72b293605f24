// Runs with a progress line that says how far they have got: a simulation (simulated time, messages, replayed turns) and a run on threads (messages, rate).
#pragma once
#include <string>

#include "cli/progress.hpp"
#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::cli {

/// simulate(s, o), updating `p` with "`what`: simulated 12.3 ms, 4.1 M of 12.0 M messages,
/// 2.4 s" (a replay adds "9.0 k of 40.0 k recorded turns") while the child runs. The child
/// reports through run_sim.hpp's progress_of; this thread polls it, never a ticker thread
/// (no thread runs while simulate() forks).
sim_result simulate_with_progress(progress& p, const scenario& s, const sim_options& o, const std::string& what);
/// The status simulate_with_progress shows, after "`what`: " and before the elapsed time.
std::string sim_status(const sim_progress& sp);

/// run_on_threads(s, t), updating `p` with "`what`: 1.2 M of 4.0 M messages, 3.1 M/s, 2.4 s"
/// from a progress_ticker (run_watch reads the workers' own counters). The ticker's thread
/// has ended when it returns, so a simulation may fork after it. With `profile`, each turn's
/// own code is timed into it (run_on_threads).
run_result run_with_progress(progress& p, const scenario& s, const trace_request& t, const std::string& what,
                             cost_profile* profile = nullptr);

}  // namespace twinsched::cli
