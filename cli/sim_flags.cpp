// The flags that say how `sim` simulates, each checked while parsing.
#include "cli/sim_flags.hpp"

#include <string>

#include <CLI/CLI.hpp>

#include "cli/option_checks.hpp"
#include "cli/scenario_flags.hpp"

namespace twinsched::cli {

void add_sim_flags(CLI::App& cmd, sim_options& o) {
  cmd.add_option("--machine", o.machine,
                 std::string(machine_help) + " Default: the scenario's `machine`.")
      ->type_name("MACHINE");
  cmd.add_option("--interleave", o.interleave,
                 "coarse: workers yield to the simulation once per quantum and whenever they block; fine: at every "
                 "atomic operation (slower; for exploring interleavings).")
      ->type_name("MODE")
      ->check(CLI::IsMember({"coarse", "fine"}))
      ->capture_default_str();
  cmd.add_option("--context-factory", o.context_factory, "SimGrid context factory; results are identical under each.")
      ->type_name("F")
      ->check(CLI::IsMember({"raw", "boost", "ucontext", "thread"}))
      ->capture_default_str();
  cmd.add_flag_callback("--no-lookahead", [&o] { o.lookahead = false; },
               "Enter SimGrid at every yield, even where it would only move its clock and resume one worker (by "
               "default the simulator does that itself: the same worker goes on, or the one due next takes over). "
               "The results are identical; for checking that, and for measuring what the lookahead saves.");
  takes(cmd.add_option("--quantum-ns", o.quantum_ns,
                       "Coarse interleaving: how far (simulated ns) a worker may run ahead of the clock before it "
                       "yields. 0: the machine's quantum_ns.")
            ->type_name("NS"),
        "a number of simulated ns, 0 or more", [](const std::string& text) { parse_decimal(text, true); });
  takes(cmd.add_option("--time-limit", o.time_limit_s,
                       "Simulated seconds after which a run counts as hung (a lost wake-up or a livelock).")
            ->type_name("S")
            ->capture_default_str(),
        "a number of simulated seconds above 0", [](const std::string& text) { parse_decimal(text, false); });
}

}  // namespace twinsched::cli
