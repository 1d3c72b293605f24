// `twinsched run`: load a scenario, apply command-line overrides, run it on threads, print the summary.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/run_progress.hpp"
#include "models/idle/idle_strategy.hpp"
#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/run_summary.hpp"

namespace twinsched::cli {
namespace {

/// The flags of `run`; each starts at the built-in default and wins over the file only
/// when given (its CLI::Option has count() > 0).
struct run_options {
  std::string file;
  scenario_flags flags;
  bool json = false;
  std::string trace_path, trace_level;
  CLI::Option* trace_level_opt = nullptr;
};

void apply_overrides(const run_options& o, scenario& s) {
  o.flags.apply(s);
  if (given(o.trace_level_opt)) s.trace = level_from_name(o.trace_level);
}

/// Where to record and at which level: --trace and --trace-level (already applied to
/// s.trace), else the scenario's `trace` key, recorded to "<name>.tst". --trace with
/// neither level records everything.
trace_request trace_of(const run_options& o, const scenario& s) {
  trace_request t;
  if (s.trace != trace_level::off) t.level = s.trace;
  else t.level = given(o.trace_level_opt) ? trace_level::off : trace_level::full;
  t.path = o.trace_path;
  if (t.path.empty() && s.trace != trace_level::off) {
    t.path = s.name + ".tst";
    std::cerr << "twinsched: recording a " << level_name(s.trace) << " trace to " << t.path << '\n';
  }
  return t;
}

int run(const run_options& o) {
  scenario s = o.file.empty() ? load_default_scenario() : load_scenario(o.file);
  apply_overrides(o, s);
  try {
    validate(s);  // the file passed already: only a flag can break it now
  } catch (const config_error& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  const trace_request t = trace_of(o, s);
  if (!t.path.empty() && t.level != trace_level::off)
    files::check_output(t.path, o.trace_path.empty() ? "the scenario's trace" : "--trace", {o.file});
  if (const unsigned crowd = crowding(s.sched.workers, hardware_threads()); crowd > 1)
    std::cerr << "twinsched: warning: " << s.sched.workers << " workers on " << hardware_threads()
              << " hardware threads: " << crowded_behavior(s.sched.idle, crowd) << '\n';
  run_result r;
  progress p("run", progress::mode_for(o.json));
  try {
    r = run_with_progress(p, s, t, s.name + ", " + s.sched.policy + ", " + std::to_string(s.sched.workers) + " workers");
  } catch (const config_error& e) {  // e.g. a policy the workload cannot use
    throw scenario_error(s.source, 0, 0, e.what());
  }
  p.finish();
  if (o.json)
    std::cout << traces::summary_json(s, r).dump(2) << '\n';
  else
    traces::print_summary(std::cout, s, r);
  return r.ok() ? 0 : 1;
}

constexpr const char* run_footer = R"(Flags beat the scenario file; the file beats the defaults shown above.
Examples:
  twinsched run                                        the embedded forward scenario
  twinsched run pingpong --idle park                   the stock pingpong, another idle strategy
  twinsched run forward --workers 4 --param hops=1000 --param tokens=50
  twinsched run pi --policy shared-queue --json | jq .msgs_per_s
On a terminal, a run that takes more than a second shows a progress line on stderr: the
messages processed so far (of those the workload expects), their rate and the time taken;
none under --json or when stderr is not a terminal.
Exit codes: 0 the run's verdict is OK, 1 it failed (checksum, message count, the workload's
own check, or a behavior threw), 2 the scenario or a flag is invalid.)";

}  // namespace

void add_run_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<run_options>();
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Run a scenario on real threads (std::thread) and print what it measured and whether it was correct.");
  run_cmd->footer(run_footer);
  run_cmd->add_option("scenario", o->file, scenario_help)->type_name("SCENARIO");
  o->flags.add_to(*run_cmd, "Worker threads that run actors ([scheduler] workers). Default: 2.");
  run_cmd->add_flag("--json", o->json, "Print the summary as one JSON object on stdout instead of text.");
  run_cmd->add_option("--trace", o->trace_path,
                      "Record a trace of the run to FILE (.tst): read it with `twinsched trace info`, compare "
                      "two with `twinsched diff`, view it with `twinsched export perfetto`.")
      ->type_name("FILE");
  o->trace_level_opt = takes_level(run_cmd->add_option("--trace-level", o->trace_level,
                                                       "How much to record: decisions (schedule, run, steal, park, ...) or "
                                                       "full (also every send and message). Default: the scenario's "
                                                       "`trace`, or full.")
                                        ->type_name("LEVEL"),
                                    true);
  run_cmd->callback([&chosen, o] {
    if (!o->trace_path.empty() && given(o->trace_level_opt) &&
        level_from_name(o->trace_level) == trace_level::off)
      throw usage_error("--trace " + o->trace_path + " with --trace-level off would record nothing: drop one of them");
    chosen = [o] { return run(*o); };
  });
}

}  // namespace twinsched::cli
