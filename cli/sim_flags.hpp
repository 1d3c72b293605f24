// The flags that say how `sim` simulates: machine, interleaving, SimGrid contexts, quantum, time limit.
#pragma once

#include "sim/run_sim.hpp"

namespace CLI {
class App;
}  // namespace CLI

namespace twinsched::cli {

/// Registers --machine, --interleave, --context-factory, --quantum-ns and --time-limit on
/// `cmd`, each checked while parsing and written into `o`.
void add_sim_flags(CLI::App& cmd, sim_options& o);

}  // namespace twinsched::cli
