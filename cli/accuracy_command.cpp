// `twinsched accuracy`: a matrix of scenarios x policies x workers, real runs against simulations, errors case by case.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/accuracy_help.hpp"
#include "cli/accuracy_progress.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/scenario_flags.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"
#include "traces/output_file.hpp"
#include "twin/accuracy_json.hpp"
#include "twin/accuracy_matrix.hpp"
#include "twin/accuracy_page.hpp"
#include "twin/accuracy_table.hpp"

namespace twinsched::cli {
namespace {

struct accuracy_cli {
  twin::matrix_request matrix;
  std::string workers_text, tolerance, worst_tolerance;
  std::string report;  ///< --report: the makespan errors as an HTML page
  std::uint64_t seed = 0;
  twin::accuracy_setup setup;  ///< machine, runs, warmup, reruns, order: the options' values
  bool json = false, markdown = false;
  CLI::Option *workers_opt = nullptr, *seed_opt = nullptr;
};

int accuracy(accuracy_cli o) {
  if (o.json && o.markdown) throw scenario_error("command line", 0, 0, "--json and --markdown: choose one");
  twin::accuracy_setup& setup = o.setup;
  setup.model_line_ns = load_machine(setup.machine).line_same_socket;  // a bad name or file: exit 2, before anything runs
  if (!o.report.empty()) {  // now: an unwritable --report fails before minutes of runs
    std::vector<std::string> inputs = o.matrix.scenarios;
    inputs.push_back(setup.machine);
    files::check_output(o.report, "--report", inputs);
  }
  setup.host_cores = std::max(1u, std::thread::hardware_concurrency());
  if (given(o.workers_opt)) o.matrix.workers = parse_whole_list(o.workers_text, 1, workers_limit);
  if (given(o.seed_opt)) o.matrix.seed = o.seed;
  std::vector<twin::accuracy_case> cases = twin::build_matrix(o.matrix, setup.host_cores, std::cerr);
  if (!o.tolerance.empty()) setup.tolerance = parse_tolerance(o.tolerance);
  if (!o.worst_tolerance.empty()) setup.worst_tolerance = parse_tolerance(o.worst_tolerance);

  matrix_progress p;
  twin::run_matrix(cases, setup, p.steps());
  p.done(cases.size());
  const twin::accuracy_summary sum = twin::summarize(cases);
  if (o.json)
    std::cout << twin::accuracy_json(setup, cases, sum).dump(2) << '\n';
  else
    twin::print_accuracy(std::cout, setup, cases, sum, o.markdown);
  if (!o.report.empty()) {
    twin::write_accuracy_page(o.report, setup, cases, sum);
    std::cerr << "accuracy: wrote " << o.report << '\n';
  }
  return twin::within_tolerance(setup, sum) ? 0 : 1;
}

}  // namespace

void add_accuracy_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<accuracy_cli>();
  o->setup.machine = "this-machine";
  CLI::App* cmd = app.add_subcommand(
      "accuracy", "How well the simulator predicts this machine: a matrix of scenarios x policies x workers, each run "
                  "on real cores and simulated, with the signed error of the makespan and the counters.");
  cmd->footer(accuracy_footer);
  cmd->add_option("--scenario", o->matrix.scenarios,
                  "A scenario file or a stock scenario's name (forward, pi, ...); repeat for more. Default: every "
                  "stock scenario.")
      ->type_name("SCENARIO")
      ->allow_extra_args(false);
  cmd->add_option("--policy", o->matrix.policies, "Policies to run, comma-separated or repeated. Default: every one that applies.")
      ->type_name("P[,P...]")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember(policy_names()));
  cmd->add_option("--idle", o->matrix.idles,
                  "Idle strategies, comma-separated: each scenario under each (its cases named SCENARIO+IDLE). "
                  "Default: each scenario's own.")
      ->type_name("S[,S...]")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember(idle_names()));
  o->workers_opt = cmd->add_option("--workers", o->workers_text,
                                   "Worker counts, comma-separated; the simulation gets as many modeled cores. At most "
                                   "this machine's cores. Default: 1,2.")
                       ->type_name("N[,N...]");
  takes(o->workers_opt, "a comma-separated list of whole numbers from 1 to " + std::to_string(workers_limit),
        [](const std::string& text) { parse_whole_list(text, 1, workers_limit); });
  cmd->add_option("--machine", o->setup.machine,
                  "Machine model for the simulated side: a name (`twinsched list machines`) or a .toml path.")
      ->type_name("MACHINE")
      ->capture_default_str();
  takes_whole(cmd->add_option("--runs", o->setup.runs, "Measured real runs per case; the real makespan is their median.")
                  ->type_name("N")
                  ->capture_default_str(),
              1, 100);
  takes_whole(cmd->add_option("--warmup", o->setup.warmup, "Real runs per case before the measured ones, discarded.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 100);
  takes_whole(cmd->add_option("--reruns", o->setup.reruns,
                              "Extra rounds, at most, re-running the cases whose runs found the host in another state "
                              "than the model's (0: none). Such runs count only if no run of the matrix found the model's state.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 100);
  cmd->add_option("--order", o->setup.order,
                  "rounds: each round runs every case once (a case's runs minutes apart, so a slow spell of the host "
                  "hits one run of many cases); cases: a case's runs one after another.")
      ->type_name("ORDER")
      ->check(CLI::IsMember({"rounds", "cases"}))
      ->capture_default_str();
  cmd->add_option("--param", o->matrix.params,
                  "Set a workload parameter in every scenario, checked like a [workload] key; repeat for more.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  o->seed_opt = cmd->add_option("--seed", o->seed, "Seed for every scenario (default: each scenario's own).")->type_name("N");
  takes_whole(o->seed_opt, 0, UINT64_MAX);
  takes_tolerance(cmd->add_option("--tolerance", o->tolerance,
                                  "Exit 1 when the median |makespan error| over the cases exceeds this: 10%, 10 or 0.1.")
                      ->type_name("PCT"));
  takes_tolerance(cmd->add_option("--worst-tolerance", o->worst_tolerance,
                                  "Exit 1 when the largest |makespan error| exceeds this.")
                      ->type_name("PCT"));
  cmd->add_flag("--profile-costs", o->setup.profile_costs,
                "Profile each scenario first (one real run on one worker, as `twinsched profile`) and charge its "
                "simulations' turns from that profile (`sim --costs`).");
  cmd->add_flag("--json", o->json, "Print one JSON object (setup, every case, summary) instead of tables.");
  cmd->add_flag("--markdown", o->markdown, "Print the tables in Markdown, for a report (not with --json).");
  cmd->add_option("--report", o->report, "Also write the makespan errors as an HTML page: a bar per case, the 10% and 25% bands.")
      ->type_name("FILE");
  cmd->callback([&chosen, o] { chosen = [o] { return accuracy(*o); }; });
}

}  // namespace twinsched::cli
