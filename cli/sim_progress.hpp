// A simulation run while its progress line counts the seconds: the child process is polled from this thread, never from a ticker thread (no thread runs while simulate() forks).
#pragma once
#include <string>

#include "cli/progress.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::cli {

/// simulate(s, o), updating `p` with "`what`: simulating, 3.2 s" while the child runs.
sim_result simulate_with_progress(progress& p, const scenario& s, const sim_options& o, const std::string& what);

}  // namespace twinsched::cli
