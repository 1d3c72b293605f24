// `twinsched run`: load a scenario, apply command-line overrides, run it on threads, print the summary.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/summary.hpp"
#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"

namespace twinsched::cli {
namespace {

/// The flags of `run`; each starts at the built-in default and wins over the file only
/// when given (its CLI::Option has count() > 0).
struct run_options {
  std::string file;
  scheduler_config sched;  // holds the override values
  std::uint64_t seed = scenario{}.seed;
  std::vector<std::string> params;
  bool checks = false;
  bool json = false;
  std::string trace_path, trace_level;
  CLI::Option *workers_opt = nullptr, *policy_opt = nullptr, *idle_opt = nullptr, *burst_opt = nullptr,
              *fifo_opt = nullptr, *steal_opt = nullptr, *seed_opt = nullptr, *trace_level_opt = nullptr;
};

bool given(const CLI::Option* o) { return o->count() > 0; }

void apply_overrides(const run_options& o, scenario& s) {
  if (given(o.workers_opt)) s.sched.workers = o.sched.workers;
  if (given(o.policy_opt)) s.sched.policy = o.sched.policy;
  if (given(o.idle_opt)) s.sched.idle.strategy = o.sched.idle.strategy;
  if (given(o.burst_opt)) s.sched.burst = o.sched.burst;
  if (given(o.fifo_opt)) s.sched.fifo = o.sched.fifo;
  if (given(o.steal_opt)) s.sched.steal = o.sched.steal;
  if (given(o.seed_opt)) s.seed = o.seed;
  if (o.checks) s.sched.checks = true;
  for (const auto& p : o.params) apply_param_override(s, p);
  if (given(o.trace_level_opt)) s.trace_level = o.trace_level;
}

/// Where to record and at which level: --trace and --trace-level (already applied to
/// s.trace_level), else the scenario's `trace` key, recorded to "<name>.tst". --trace with
/// neither level records everything.
trace_request trace_of(const run_options& o, const scenario& s) {
  trace_request t;
  if (s.trace_level != "off") t.level = s.trace_level == "decisions" ? trace_level::decisions : trace_level::full;
  else t.level = given(o.trace_level_opt) ? trace_level::off : trace_level::full;
  t.path = o.trace_path;
  if (t.path.empty() && s.trace_level != "off") {
    t.path = s.name + ".tst";
    std::cerr << "twinsched: recording a " << s.trace_level << " trace to " << t.path << '\n';
  }
  return t;
}

int run(const run_options& o) {
  scenario s = o.file.empty() ? load_default_scenario() : load_scenario_file(o.file);
  apply_overrides(o, s);
  try {
    validate(s);  // the file passed already: only a flag can break it now
  } catch (const config_error& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  const trace_request t = trace_of(o, s);
  run_result r;
  try {
    r = run_on_threads(s, t);
  } catch (const config_error& e) {  // e.g. a policy the workload cannot use
    throw scenario_error(s.source, 0, 0, e.what());
  }
  if (o.json)
    std::cout << summary_json(s, r).dump(2) << '\n';
  else
    print_summary(std::cout, s, r);
  return r.ok() ? 0 : 1;
}

constexpr const char* run_footer = R"(Flags beat the scenario file; the file beats the defaults shown above.
Examples:
  twinsched run                                        the embedded forward scenario
  twinsched run scenarios/pingpong.toml --idle park    same file, another idle strategy
  twinsched run scenarios/forward.toml --workers 4 --param hops=1000 --param tokens=50
  twinsched run scenarios/pi.toml --policy shared-queue --json | jq .msgs_per_s
Exit codes: 0 the run's verdict is OK, 1 it failed (checksum, message count or the
workload's own check), 2 the scenario or a flag is invalid.)";

}  // namespace

void add_run_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<run_options>();
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Run a scenario on real threads (std::thread) and print what it measured and whether it was correct.");
  run_cmd->footer(run_footer);
  run_cmd->add_option("scenario", o->file,
                      "Scenario file (TOML; see scenarios/*.toml and `twinsched list scenarios`). "
                      "Without one, runs the forward scenario built into the binary.")
      ->type_name("FILE");
  o->workers_opt = run_cmd->add_option("--workers", o->sched.workers, "Worker threads that run actors ([scheduler] workers).")
                       ->type_name("N")
                       ->check(CLI::PositiveNumber)
                       ->capture_default_str();
  o->policy_opt = run_cmd->add_option("--policy", o->sched.policy,
                                      "Scheduling policy: where runnable actors wait and who runs them "
                                      "([scheduler] policy; `twinsched list policies`).")
                      ->type_name("P")
                      ->check(CLI::IsMember(policy_names()))
                      ->capture_default_str();
  o->idle_opt = run_cmd->add_option("--idle", o->sched.idle.strategy,
                                    "What a worker with nothing to run does: spin, yield, sleep, back off or park "
                                    "([scheduler.idle] strategy; `twinsched list idle`).")
                    ->type_name("S")
                    ->check(CLI::IsMember(idle_names()))
                    ->capture_default_str();
  o->burst_opt = run_cmd->add_option("--burst", o->sched.burst,
                                     "Max messages an actor processes per turn before its worker moves on; "
                                     "higher is faster, lower is fairer ([scheduler] burst).")
                     ->type_name("N")
                     ->check(CLI::PositiveNumber)
                     ->capture_default_str();
  o->fifo_opt = run_cmd->add_flag("--fifo,!--no-fifo", o->sched.fifo,
                                  "stealing: --fifo makes a worker run its oldest runnable actor first (FIFO); "
                                  "--no-fifo, the default, its newest (LIFO) ([scheduler] fifo).");
  o->steal_opt = run_cmd->add_option("--steal", o->sched.steal,
                                     "stealing: an idle worker takes one actor or half of a random victim's queue "
                                     "([scheduler] steal).")
                     ->type_name("MODE")
                     ->check(CLI::IsMember({"one", "half"}))
                     ->capture_default_str();
  o->seed_opt = run_cmd->add_option("--seed", o->seed, "Seed for every random choice: steal victims, routing (top-level seed).")
                    ->type_name("N")
                    ->capture_default_str();
  run_cmd->add_option("--param", o->params,
                      "Set a workload parameter, checked like a [workload] key in the file; repeat for more. "
                      "Names and defaults: `twinsched list workloads`.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  run_cmd->add_flag("--checks", o->checks,
                    "Also check at run time that no actor ever runs on two workers at once (slower).");
  run_cmd->add_flag("--json", o->json, "Print the summary as one JSON object on stdout instead of text.");
  run_cmd->add_option("--trace", o->trace_path,
                      "Record a trace of the run to FILE (.tst): read it with `twinsched trace info`, compare "
                      "two with `twinsched diff`, view it with `twinsched export perfetto`.")
      ->type_name("FILE");
  o->trace_level_opt = run_cmd->add_option("--trace-level", o->trace_level,
                                           "How much to record: decisions (schedule, run, steal, park, ...) or full "
                                           "(also every send and message). Default: the scenario's `trace`, or full.")
                           ->type_name("LEVEL")
                           ->check(CLI::IsMember({"off", "decisions", "full"}));
  run_cmd->callback([&chosen, o] { chosen = [o] { return run(*o); }; });
}

}  // namespace twinsched::cli
