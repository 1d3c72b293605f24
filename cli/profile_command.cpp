// `twinsched profile`: run a scenario on real cores with each turn's own code timed, and write the cost profile `sim --costs` charges.
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/run_progress.hpp"
#include "models/cost_profile.hpp"
#include "scenarios/cost_profile_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/run_summary.hpp"
#include "twin/text_table.hpp"

namespace twinsched::cli {
namespace {

struct profile_options {
  std::string file, out, trace_path;
  scenario_flags flags;
};

void print_profile(std::ostream& os, const cost_profile& p) {
  twin::text_table t{{"  behavior", "tag", "turns", "mean ns", "p50 ns", "p95 ns", "max ns"},
                     {false, true, true, true, true, true, true}, {}};
  auto ns = [](double v) { return traces::fixed(v, 0); };
  for (const turn_kind_cost& k : p.kinds)
    t.rows.push_back({"  " + k.behavior, std::to_string(k.tag), std::to_string(k.turns), ns(k.mean_ns),
                      ns(k.quantiles_ns[10]), ns(k.quantiles_ns[19]), ns(k.quantiles_ns[20])});
  t.print(os, false);
}

int profile(const profile_options& o) {
  scenario s = o.file.empty() ? load_default_scenario() : load_scenario(o.file);
  if (!given(o.flags.workers_opt)) s.sched.workers = 1;  // one worker: no turn waits on another's cache lines
  o.flags.apply(s);
  try {
    validate(s);
  } catch (const config_error& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  files::check_output(o.out, "-o", {o.file, o.trace_path});
  trace_request t;
  t.path = o.trace_path;
  if (!t.path.empty()) files::check_output(t.path, "--trace", {o.file, o.out});
  cost_profile prof;
  progress p("profile", progress::mode_for(false));
  const run_result r = run_with_progress(p, s, t, s.name + ", " + std::to_string(s.sched.workers) + " workers", &prof);
  p.finish();
  std::uint64_t turns = 0;
  for (const turn_kind_cost& k : prof.kinds) turns += k.turns;
  std::cout << "profile  " << s.name << ", " << s.sched.policy << ", " << s.sched.workers << " worker"
            << (s.sched.workers == 1 ? "" : "s") << ": " << turns << " turns of " << prof.kinds.size()
            << (prof.kinds.size() == 1 ? " kind" : " kinds") << " (" << prof.preempted_turns
            << " preempted, left out) in " << traces::fixed(r.wall_s, 3) << " s, verdict " << (r.ok() ? "OK" : "FAIL") << '\n';
  print_profile(std::cout, prof);
  if (!r.ok()) {
    std::cerr << "twinsched: the run's verdict failed; no profile written (see `twinsched run` for why)\n";
    return 1;
  }
  files::write_whole(o.out, cost_profile_text(prof));
  std::cout << "wrote    " << o.out << "  (simulate with it: twinsched sim "
            << (o.file.empty() ? std::string("forward") : o.file) << " --costs " << o.out << ")\n";
  return 0;
}

constexpr const char* profile_footer = R"(What it measures: for each kind of turn (the behavior's C++ type and the message's tag), the
time-stamp counter across the behavior's receive, less the runtime's work inside it (sends,
spawns, shared words), less what it burned with burn_ns (the simulator charges that anyway),
less what timing an empty turn reads. Turns whose thread lost its core are left out and
counted. Work a behavior declares with did_work_ns is in the measurement: in simulation the
profile's draw replaces it (docs/COSTS.md).
Examples:
  twinsched profile savina/quicksort -o qs.toml         one worker (the default), then
  twinsched sim savina/quicksort --cores 2 --costs qs.toml
  twinsched run forward --workers 1 --param hops=1000 --trace f.tst
  twinsched profile forward --param hops=1000 -o f.toml
  twinsched whatif f.tst --costs f.toml --policy sharing --cores 4
Exit codes: 0 written, 1 the run's verdict failed (nothing written), 2 a bad scenario, flag or path.)";

}  // namespace

void add_profile_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<profile_options>();
  CLI::App* cmd = app.add_subcommand(
      "profile", "Run a scenario on real cores timing each turn's own code, and write the cost profile that "
                 "`sim --costs` charges simulated turns from.");
  cmd->footer(profile_footer);
  cmd->add_option("scenario", o->file, scenario_help)->type_name("SCENARIO");
  o->flags.add_to(*cmd, "Worker threads of the measured run. Default: 1, whatever the scenario says.");
  cmd->add_option("-o,--output", o->out, "Write the profile (TOML) to FILE.")->type_name("FILE")->required();
  cmd->add_option("--trace", o->trace_path,
                  "Also record the profiled run's full trace to FILE (its times include the timing's own cost: "
                  "record a run for `twinsched whatif` with `twinsched run --trace`).")
      ->type_name("FILE");
  cmd->callback([&chosen, o] { chosen = [o] { return profile(*o); }; });
}

}  // namespace twinsched::cli
