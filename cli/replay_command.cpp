// `twinsched replay TRACE`: re-run a traced run in the simulator with its recorded decisions forced, and check the result.
#include <iostream>
#include <string>

#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/sim_progress.hpp"
#include "cli/step_session.hpp"
#include "cli/subcommand.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/replay_outcome.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::cli {
namespace {

struct replay_cli {
  std::string file, out, machine, level = "full";
  std::uint32_t cores = 0;
  bool json = false, step = false;
  step_options stepping;
};

int replay(const replay_cli& c) {
  traces::trace_reader rec(c.file);
  const traces::trace_header& h = rec.header();
  if (h.scenario_text.empty()) throw traces::trace_error(c.file, 0, "the header holds no scenario to replay");
  scenario s = load_scenario_text(h.scenario_text, c.file + " (recorded scenario)");
  // never coarser than the recording: the identity check compares at the recording's level
  s.trace = h.level == trace_level::full ? trace_level::full : level_from_name(c.level);
  sim_options o = replay_options(h, s, c.machine, c.cores);
  o.replay_from = c.file;
  o.trace_path = c.out.empty() ? replay_trace_path(c.file) : c.out;
  files::check_output(o.trace_path, c.out.empty() ? "the replay's trace" : "-o", {c.file, o.machine});
  replay_outcome r;
  r.recorded = c.file;
  r.replayed = o.trace_path;
  r.backend = h.backend;
  r.as_recorded = h.backend == "sim" && c.machine.empty() && !c.cores;

  progress p("replay", progress::mode_for(c.json));
  {
    // Every block's checksum before anything runs: a damaged lane is exit 2 whichever lane
    // it is, not a replay that fails later or follows only the lanes the replay reads.
    progress_ticker ticker(p, [&] {  // ends before simulate forks
      return "checking " + c.file + ": " + count_of_text(rec.events_read(), rec.events(), "events") + " read, " +
             duration_text(p.elapsed_s());
    });
    rec.verify();
  }
  const std::uint64_t checked = rec.events_read();
  std::cerr << "twinsched: replaying " << c.file << " (" << h.backend << ", " << h.workers << " workers, "
            << h.policy << ") on " << o.cores << " simulated cores of " << o.machine << " ...\n";
  r.r = simulate_with_progress(p, s, o, "replaying " + c.file);
  traces::trace_reader out(o.trace_path);
  if (r.as_recorded) {
    const double t0 = p.elapsed_s();
    progress_ticker ticker(p, [&] {  // no fork from here on
      return "comparing with the recording: " +
             count_of_text(rec.events_read() - checked + out.events_read(), rec.events() + out.events(), "events") +
             " read, " + duration_text(p.elapsed_s() - t0);
    });
    r.match = traces::compare_replay(rec, out);
  }
  p.finish();
  // a message-exact replay must give every actor the recorded messages: the footers' digests
  r.deliveries = traces::compare_deliveries(rec.footer(), out.footer());
  if (c.json)
    std::cout << replay_json(s, r).dump(2) << '\n';
  else
    print_replay(std::cout, s, r);
  // --step: a session on the replayed trace; --break/--until alone: the state where they stop
  if (c.step || !c.stepping.breakpoints.empty() || c.stepping.until_ns) {
    step_options so = c.stepping;
    so.interactive = so.interactive && c.step;
    std::cout << '\n';
    run_step_session(out, std::cin, std::cout, so);
  }
  return r.ok() ? 0 : 1;
}

/// --step, --break and --until print a stepping session, which no JSON could hold.
void check(replay_cli& c) {
  if (c.json && (c.step || !c.stepping.breakpoints.empty() || c.stepping.until_ns))
    throw CLI::ValidationError("--json", "cannot be combined with --step, --break or --until");
}

constexpr const char* replay_footer =
    R"(Replay rebuilds the run from the scenario stored in the trace and runs it in the simulator,
forcing each worker to run the actors its recorded turns ran, in order. A simulated trace is
replayed on the machine, cores and interleaving it was recorded with and must come out
identical, event for event (exit 1 if not). A real trace is replayed on the scenario's
machine with the recording host's core count (the header's host_cores). At the full level
the replay is message-exact: every turn runs the recorded actor on the recorded worker with
exactly the messages it consumed for real, in order, and every actor's delivery digest must
equal the recording's (exit 1 if a turn could not, or a digest differs). At the decisions
level only the order of each worker's turns is known: they are followed under modeled
timing, taking whatever messages arrived; where they cannot apply (an actor the recording
ran is not runnable when every worker waits) the replay skips that turn. Where the recorded
turns run out the rest of the run follows the scenario's seed. Either way it says where.
Examples:
  twinsched sim skewed --cores 2 --trace sim.tst
  twinsched replay sim.tst                            identical to the recording?
  twinsched run skewed --trace real.tst
  twinsched replay real.tst -o real-in-sim.tst        the real run's decisions, modeled timing
  twinsched diff real.tst real-in-sim.tst
  twinsched replay sim.tst --step                     step event by event (`help` at the prompt)
  twinsched replay real.tst --until 120000 --break steal --batch    the state at the first stop
Stepping walks the replayed trace (full level), so mailbox sizes are always known.
On a terminal, once it takes more than a second, a progress line on stderr shows the
simulated time, messages and recorded turns replayed so far, then the events read comparing
the replay with the recording; none under --json or when stderr is not a terminal.
Exit codes: 0 the replay is correct (and identical, for a simulated trace; message-exact with
equal digests, for a real one at full level); 1 otherwise;
2 a bad flag or an unreadable trace.)";

}  // namespace

void add_replay_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<replay_cli>(app, chosen, "replay",
                                          "Re-execute a traced run (simulated or real) in the simulator with its "
                                          "recorded scheduling decisions forced, deterministically.",
                                          replay_footer, replay, check);
  cmd->add_option("trace", c->file, "The trace to replay (.tst, from `run --trace` or `sim --trace`).")
      ->type_name("FILE")
      ->required();
  cmd->add_option("-o,--out", c->out, "Where to write the replay's trace. Default: FILE with .replay.tst.")
      ->type_name("OUT");
  cmd->add_option("--machine", c->machine,
                  "Machine model to replay on. Default: the recording's (simulated) or the scenario's (real).")
      ->type_name("MACHINE");
  takes_whole(cmd->add_option("--cores", c->cores,
                              "Modeled cores, 1.." + std::to_string(cores_limit) +
                                  ". Default: the recording's (simulated) or the recording host's.")
                  ->type_name("N"),
              1, cores_limit);
  takes_level(cmd->add_option("--level", c->level, "Trace level of the replay's trace (full has what stepping shows).")
                  ->type_name("LEVEL")
                  ->capture_default_str(),
              false);
  cmd->add_flag("--json", c->json, "Print one JSON object instead of text.");
  cmd->add_flag("--step", c->step,
                "Then step through the replayed trace event by event (commands from stdin; `help` lists them).");
  add_step_flags(cmd, c->stepping);
}

}  // namespace twinsched::cli
