// `twinsched validate`: run a scenario on real cores and in simulation on the same core count, trace both, diff them.
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/run_progress.hpp"
#include "cli/sim_progress.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/trace_reader.hpp"
#include "twin/validate.hpp"

namespace twinsched::cli {
namespace {

struct validate_cli {
  std::string file, machine, out_dir = ".", tolerance, level = "full";
  scenario_flags flags;
};

int validate_both(const validate_cli& c) {
  validate_request r;
  r.s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(r.s);
  if (const std::uint32_t asked = cap_workers_to_machine(r.s); asked != r.s.sched.workers)
    std::cerr << "twinsched: " << asked << " workers capped at this machine's " << r.s.sched.workers << " cores\n";
  r.scenario_file = c.file;
  r.machine = c.machine;
  r.out_dir = c.out_dir;
  r.level = level_from_name(c.level);
  if (!c.tolerance.empty()) r.diff.tolerance = parse_tolerance(c.tolerance);

  progress p("validate", progress::mode_for(false));
  validate_hooks h;
  // run_with_progress's ticker thread ends before simulate() forks
  h.run_real = [&p](const scenario& s, const trace_request& t) {
    return run_with_progress(p, s, t, "real run on " + std::to_string(s.sched.workers) + " threads");
  };
  h.simulate = [&p](const scenario& s, const sim_options& o) {
    return simulate_with_progress(p, s, o, "simulation on " + std::to_string(o.cores) + " cores");
  };
  h.diff = [&p](const traces::trace_reader& a, const traces::trace_reader& b, const traces::diff_options& opt) {
    const double t0 = p.elapsed_s();
    progress_ticker ticker(p, [&] {
      return "comparing the traces: " + count_of_text(a.events_read() + b.events_read(), a.events() + b.events(), "events") +
             " read, " + duration_text(p.elapsed_s() - t0);
    });
    return traces::diff_traces(a, b, opt);
  };
  const validate_outcome v = validate_scenario(r, h);
  p.finish();
  print_validation(std::cout, v);
  return v.exit_code();
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
