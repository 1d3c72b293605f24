// `twinsched validate`: run a scenario on real cores and in simulation on the same core count, trace both, diff them.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/sim_progress.hpp"
#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"
#include "traces/output_file.hpp"
#include "traces/diff.hpp"
#include "traces/diff_text.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::cli {
namespace {

struct validate_cli {
  std::string file, machine, out_dir = ".", tolerance, level = "full";
  scenario_flags flags;
};

int validate_both(const validate_cli& c) {
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(s);
  const unsigned here = std::max(1u, std::thread::hardware_concurrency());
  if (s.sched.workers > here) {
    std::cerr << "twinsched: " << s.sched.workers << " workers capped at this machine's " << here << " cores\n";
    s.sched.workers = here;
  }
  const trace_level level = s.trace = level_from_name(c.level);
  const std::string real_path = c.out_dir + "/" + s.name + ".real.tst", sim_path = c.out_dir + "/" + s.name + ".sim.tst";
  files::check_output_folder(c.out_dir, "--out", false);
  const std::vector<std::string> inputs{c.file, c.machine.empty() ? s.machine : c.machine};
  files::check_output(real_path, "--out", inputs);
  files::check_output(sim_path, "--out", inputs);

  progress p("validate", progress::mode_for(false));
  // run_with_progress's ticker thread ends before simulate() forks
  run_result real = run_with_progress(p, s, trace_request{real_path, level},
                                      "real run on " + std::to_string(s.sched.workers) + " threads");
  sim_options o;
  o.cores = s.sched.workers;
  o.machine = c.machine;
  o.trace_path = sim_path;
  sim_result sim = simulate_with_progress(p, s, o, "simulation on " + std::to_string(o.cores) + " cores");
  traces::trace_reader a(real_path), b(sim_path);
  traces::diff_options opt;
  if (!c.tolerance.empty()) opt.tolerance = parse_tolerance(c.tolerance);
  traces::diff_report d;
  {
    const double t0 = p.elapsed_s();
    progress_ticker ticker(p, [&] {
      return "comparing the traces: " + count_of_text(a.events_read() + b.events_read(), a.events() + b.events(), "events") +
             " read, " + duration_text(p.elapsed_s() - t0);
    });
    d = traces::diff_traces(a, b, opt);
  }
  p.finish();

  std::cout << "real          " << s.sched.workers << " threads: " << real.messages << " messages in " << real.wall_s
            << " s, verdict " << (real.ok() ? "OK" : "FAIL") << ", trace " << real_path << '\n'
            << "simulated     " << sim.cores << " cores of " << sim.machine << ": " << sim.run.messages << " messages in "
            << sim.sim_s << " simulated s, verdict " << (sim.ok() ? "OK" : "FAIL") << ", trace " << sim_path << "\n\n";
  traces::print_diff(std::cout, d);
  return real.ok() && sim.ok() ? d.exit_code() : 1;
}

constexpr const char* validate_footer =
    R"(The real side runs on at most this machine's cores; the simulation models the same number
of cores of the scenario's machine (or --machine). Both traces are kept for `twinsched diff`,
`trace info` and `export perfetto`.
Examples:
  twinsched validate skewed
  twinsched validate forward --param hops=2000 --tolerance 25%
On a terminal, once it takes more than a second, a progress line on stderr shows each phase
and how far it has got: the real run's messages and rate, the simulation's simulated time
and messages, then the events read comparing the traces.
Exit codes: 0 both runs correct, logically equivalent and within the tolerance; 1 otherwise;
2 a bad scenario or flag.)";

}  // namespace

void add_validate_command(CLI::App& app, action& chosen) {
  auto c = std::make_shared<validate_cli>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Run a scenario on real cores and in simulation on the same core count, trace both, and diff them.");
  cmd->footer(validate_footer);
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  c->flags.add_to(*cmd, "Workers on both sides (capped at this machine's cores). Default: the scenario's.");
  cmd->add_option("--machine", c->machine, "Machine model for the simulated side. Default: the scenario's `machine`.")
      ->type_name("MACHINE");
  cmd->add_option("--out", c->out_dir, "Folder for the two traces (<name>.real.tst, <name>.sim.tst).")
      ->type_name("DIR")
      ->capture_default_str();
  takes_level(cmd->add_option("--trace-level", c->level, "decisions or full (full adds sends and queueing delays).")
                  ->type_name("LEVEL")
                  ->capture_default_str(),
              false);
  takes_tolerance(
      cmd->add_option("--tolerance", c->tolerance, "Fail (exit 1) when a headline metric differs by more, e.g. 25%.")
          ->type_name("PCT"));
  cmd->callback([&chosen, c] { chosen = [c] { return validate_both(*c); }; });
}

}  // namespace twinsched::cli
