// The `twinsched` subcommands: each registers its options and, when chosen, the action main runs.
#pragma once
#include <functional>
#include <iosfwd>
#include <string>

namespace CLI {
class App;
class Option;
}

namespace twinsched::cli {

/// What main runs after a successful parse. Returns the exit code (0 ok, 1 the run's
/// verdict failed); throws scenario_error or config_error for a bad scenario (exit 2).
using action = std::function<int()>;

/// `twinsched run [SCENARIO] [overrides]`: run a scenario on real threads, print the summary.
void add_run_command(CLI::App& app, action& chosen);
/// `twinsched list policies|idle|workloads|scenarios`.
void add_list_command(CLI::App& app, action& chosen);
/// `twinsched sim SCENARIO [--cores N|LIST] ...`: run a scenario on a simulated machine.
void add_sim_command(CLI::App& app, action& chosen);
/// `twinsched profile SCENARIO -o FILE`: a real run with each turn's own code timed, as a cost profile.
void add_profile_command(CLI::App& app, action& chosen);
/// `twinsched whatif TRACE --policy LIST --cores LIST`: a recording predicted under other configurations.
void add_whatif_command(CLI::App& app, action& chosen);
/// `twinsched frontier SCENARIO`: p99 latency against CPU per request over idle strategies x policies.
void add_frontier_command(CLI::App& app, action& chosen);
/// `twinsched validate SCENARIO`: the scenario on real cores and in simulation on the same
/// core count, both traced, then diffed.
void add_validate_command(CLI::App& app, action& chosen);
/// `twinsched accuracy`: scenarios x policies x workers on real cores and in simulation, signed errors.
void add_accuracy_command(CLI::App& app, action& chosen);
/// "10%", "10" (a number above 1 is a percentage) or "0.1" -> 0.1; throws std::invalid_argument.
double parse_tolerance(const std::string& s);
/// Checks a --tolerance option's value with parse_tolerance while parsing; returns opt.
CLI::Option* takes_tolerance(CLI::Option* opt);
/// `twinsched trace info FILE`: header, counts by kind, duration of a trace.
void add_trace_command(CLI::App& app, action& chosen);
/// `twinsched diff A B`: two traces' metrics side by side, logical equivalence, first divergence.
void add_diff_command(CLI::App& app, action& chosen);
/// `twinsched export perfetto FILE -o OUT.json`: Chrome trace-event JSON for ui.perfetto.dev.
void add_export_command(CLI::App& app, action& chosen);

/// `twinsched report TRACE [TRACE2] -o FILE`: a self-contained HTML report of one trace or two compared.
void add_report_command(CLI::App& app, action& chosen);
/// `twinsched analyze TRACE`: communication graph, causality DAG, critical path, speed-up bound.
void add_analyze_command(CLI::App& app, action& chosen);

/// `twinsched replay FILE`: the traced run again in the simulator, its recorded decisions forced.
void add_replay_command(CLI::App& app, action& chosen);
/// `twinsched explore SCENARIO`: many perturbed schedules in simulation, every invariant
/// checked; a failing schedule reproduced, traced and (--shrink) minimized.
void add_explore_command(CLI::App& app, action& chosen);
/// `twinsched sweep SPEC.toml`: every combination of a sweep file's axes, locally or on Slurm.
void add_sweep_command(CLI::App& app, action& chosen);
/// `twinsched suite [NAME]`: a suite's benchmarks under every policy that applies, real and simulated, as a table.
void add_suite_command(CLI::App& app, action& chosen);
/// `twinsched calibrate [-o FILE] [--quick]`: measures this machine, writes a machine model.
void add_calibrate_command(CLI::App& app, action& chosen);
/// `twinsched completion bash`: the bash completion script, made from `app`'s own options.
void add_completion_command(CLI::App& app, action& chosen);

}  // namespace twinsched::cli
