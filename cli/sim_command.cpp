// `twinsched sim`: run a scenario on a simulated machine (one process per simulation), print the summary or a scaling table.
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/schedule_flags.hpp"
#include "cli/sim_flags.hpp"
#include "cli/sim_progress.hpp"
#include "cli/subcommand.hpp"
#include "scenarios/cost_profile_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"
#include "sim/scaling_run.hpp"
#include "traces/output_file.hpp"
#include "viz/scaling_report.hpp"

namespace twinsched::cli {

namespace {

struct sim_cli {
  std::string file, cores_text, report;  ///< report: --report, the table as an HTML page
  std::string costs;                      ///< --costs: a profile file
  scenario_flags flags;
  schedule_flags schedule;
  sim_options opt;
  bool json = false, determinism = false, list_machines = false;
  CLI::Option* cores_opt = nullptr;
};

/// --trace and --report: each a single file that is none of the inputs, checked before any work.
void check_outputs(const sim_cli& c, const std::vector<std::string>& inputs, std::size_t simulations) {
  if (!c.opt.trace_path.empty() && simulations != 1)
    throw scenario_error("command line", 0, 0, "--trace records one simulation: give a single --cores value");
  if (!c.opt.trace_path.empty() && c.determinism)
    throw scenario_error("command line", 0, 0, "--trace and --check-determinism together would write the trace twice");
  if (!c.opt.trace_path.empty()) files::check_output(c.opt.trace_path, "--trace", inputs);
  if (!c.report.empty()) {
    files::check_output(c.report, "--report", inputs);
    if (files::same_file(c.report, c.opt.trace_path))
      throw files::path_error("--report " + c.report + " and --trace " + c.opt.trace_path + " name the same file");
  }
}

int run(const sim_cli& c) {
  if (c.list_machines) {
    print_machines(std::cout);
    return 0;
  }
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(s);
  const std::vector<std::uint32_t> cores =
      given(c.cores_opt) ? parse_whole_list(c.cores_text, 1, cores_limit) : std::vector<std::uint32_t>{0};
  check_outputs(c, {c.file, c.opt.machine.empty() ? s.machine : c.opt.machine, c.costs}, cores.size());
  sim_options opts = c.opt;
  if (!c.costs.empty()) {
    opts.costs = std::make_shared<const cost_profile>(read_cost_profile(c.costs));
    opts.costs_source = c.costs;
  }
  try {
    opts.schedule = c.schedule.resolve();
  } catch (const std::invalid_argument& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  progress bar("sim", progress::mode_for(c.json));
  const bool table = !c.json && cores.size() > 1;  // a scaling table prints each row as its simulation ends
  const auto simulate = [&](const scenario& si, const sim_options& o, const std::string& what) {
    try {
      validate(si);
    } catch (const config_error& e) {
      throw scenario_error("command line", 0, 0, e.what());
    }
    return simulate_with_progress(bar, si, o, what);
  };
  const auto done = [&](const std::vector<sim_run>& runs) {
    if (!runs.back().difference.empty())
      std::cerr << "twinsched: NOT DETERMINISTIC: " << s.name << " on " << cores[runs.size() - 1]
                << " cores: two runs differ at " << runs.back().difference << '\n';
    if (table && runs.size() == 1) bar.print(std::cout, scaling_header(runs[0], c.opt.interleave));
    if (table) bar.print(std::cout, scaling_row(runs.back(), runs[0].r.run.msgs_per_s()));
  };
  const std::vector<sim_run> runs =
      simulate_on_cores(s, opts, cores, given(c.flags.workers_opt), c.determinism, simulate, done);
  bar.finish();
  print_sim_runs(std::cout, runs, c.json, opts.schedule);
  if (!c.report.empty()) {  // the table as a chart: one curve for this policy over the core counts
    std::vector<viz::scaling_point> pts;
    for (auto& run : runs) pts.push_back({run.s.sched.policy, run.r.cores, run.r.sim_s, run.r.run.msgs_per_s()});
    files::output_file page(c.report);
    viz::write_scaling_report(page.stream(), "twinsched sim: " + s.name + " on " + runs[0].r.machine,
                              "simulated; " + s.sched.policy + ", idle " + s.sched.idle.strategy, pts);
    page.commit();
  }
  return runs_ok(runs) ? 0 : 1;
}

constexpr const char* sim_footer = R"(Flags beat the scenario file; the file beats the defaults shown above.
--cores N simulates N modeled cores with one worker each (unless --workers); without --cores
the machine's own core count and the scenario's workers are used. With more workers than
cores, workers share cores (worker i runs on core i mod cores). A --cores list prints each
row of its table as that simulation ends. On a terminal, a simulation that takes more than a
second shows a progress line on stderr: the simulated time reached, the messages processed
(of those the workload expects) and the real time taken; none under --json or when stderr
is not a terminal. The simulation reports at simulated-time steps, never by a clock: a
result is the same with the line shown or not.
Examples:
  twinsched sim forward --cores 16
  twinsched sim forward --machine xeon-2s-32c --policy shared-queue
  twinsched sim forward --cores 1,2,4,8,16 --param hops=2000                    a scaling table
  twinsched sim sim_spin_vs_park --cores 2 --workers 8 --idle busy-spin
  twinsched sim pi --check-determinism --json
  twinsched profile savina/sieve -o s.toml && twinsched sim savina/sieve --cores 2 --costs s.toml
  twinsched list machines
Exit codes: 0 the verdict is OK, 1 it failed (checksum, message count, the workload's own
check, a behavior threw, or the run hit --time-limit; or --check-determinism found a
difference), 2 the scenario, machine file or a flag is invalid.)";

}  // namespace

void add_sim_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<sim_cli>(
      app, chosen, "sim",
      "Run a scenario on a simulated multicore machine (SimGrid): same policies, modeled cache and sync costs, "
      "deterministic; one process per simulation.",
      sim_footer, run);
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  c->cores_opt = cmd->add_option("--cores", c->cores_text,
                                 "Modeled cores (1.." + std::to_string(cores_limit) +
                                     " each): N, or a comma-separated list for a scaling table (one simulation "
                                     "process each). Default: the machine's core count.")
                     ->type_name("N|LIST");
  takes(c->cores_opt, "N or a comma-separated list of N, each 1.." + std::to_string(cores_limit),
        [](const std::string& text) { parse_whole_list(text, 1, cores_limit); });
  add_sim_flags(*cmd, c->opt);
  c->flags.add_to(*cmd, "Worker threads (S4U actors). Default: one per modeled core.");
  c->schedule.add_to(*cmd, false);
  cmd->add_option("--trace", c->opt.trace_path,
                  "Record the simulation's trace to FILE (.tst, exact simulated times; level: the scenario's "
                  "`trace`, else full). One --cores value only.")
      ->type_name("FILE");
  takes_whole(cmd->add_option("--max-operations", c->opt.max_points,
                              "Platform operations after which a run counts as livelocked (0: no limit; explore sets it).")
                  ->type_name("N"),
              0, UINT64_MAX);
  cmd->add_option("--costs", c->costs,
                  "Charge each turn's own code from a cost profile (`twinsched profile` writes one): a seeded "
                  "draw from what that kind of turn (behavior type, tag) took on real cores, in place of what "
                  "the behavior declares with did_work_ns. Default: only declared costs.")
      ->type_name("FILE");
  cmd->add_flag("--check-determinism", c->determinism,
                "Run every simulation twice and fail (exit 1) at the first difference in result or event hash.");
  cmd->add_flag("--json", c->json, "Print one JSON object (an array for a --cores list) instead of text.");
  cmd->add_option("--report", c->report, "Also write the scaling table as an HTML page (speed-up and msgs/s over --cores).")
      ->type_name("FILE");
  cmd->add_flag("--list-machines", c->list_machines, "List the machine models and exit (same as `twinsched list machines`).");
}

}  // namespace twinsched::cli
