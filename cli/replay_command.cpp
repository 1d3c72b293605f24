// `twinsched replay TRACE`: re-run a traced run in the simulator with its recorded decisions forced, and check the result.
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "cli/sim_progress.hpp"
#include "cli/option_checks.hpp"
#include "cli/step_session.hpp"
#include "cli/summary.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"
#include "traces/output_file.hpp"
#include "traces/replay_check.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::cli {
namespace {

struct replay_cli {
  std::string file, out, machine, level = "full";
  std::uint32_t cores = 0;
  bool json = false, step = false;
  step_options stepping;
};

/// "in.tst" -> "in.replay.tst".
std::string default_out(const std::string& in) {
  const std::string ext = ".tst";
  if (in.size() > ext.size() && in.compare(in.size() - ext.size(), ext.size(), ext) == 0)
    return in.substr(0, in.size() - ext.size()) + ".replay.tst";
  return in + ".replay.tst";
}

/// How to simulate the recorded run again: as recorded for a simulated trace; for a real
/// one, the scenario's machine with as many cores as the recording host had (at least the
/// workers). Flags override either.
sim_options options_for(const traces::trace_header& h, const scenario& s, const replay_cli& c) {
  sim_options o;
  if (h.backend == "sim") {
    o.cores = h.sim_cores;
    if (!h.sim_interleave.empty()) o.interleave = h.sim_interleave;
    o.quantum_ns = h.sim_quantum_ns;
    o.machine = h.sim_machine_spec.empty() ? h.machine : h.sim_machine_spec;
    o.schedule = parse_schedule(h.sim_schedule);  // the preemptions explore injected, if any
  } else {
    o.cores = std::max(h.host_cores, s.sched.workers);  // the header says; never parsed from `machine`
    o.machine = s.machine;
  }
  if (!c.machine.empty()) o.machine = c.machine;
  if (c.cores) o.cores = c.cores;
  return o;
}

int replay(const replay_cli& c) {
  traces::trace_reader rec(c.file);
  const traces::trace_header& h = rec.header();
  if (h.scenario_text.empty()) throw traces::trace_error(c.file, 0, "the header holds no scenario to replay");
  scenario s = load_scenario_text(h.scenario_text, c.file + " (recorded scenario)");
  // never coarser than the recording: the identity check compares at the recording's level
  s.trace = h.level == trace_level::full ? trace_level::full : level_from_name(c.level);
  sim_options o = options_for(h, s, c);
  o.replay_from = c.file;
  o.trace_path = c.out.empty() ? default_out(c.file) : c.out;
  files::check_output(o.trace_path, c.out.empty() ? "the replay's trace" : "-o", {c.file, o.machine});
  const bool as_recorded = h.backend == "sim" && c.machine.empty() && !c.cores;

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
  sim_result r = simulate_with_progress(p, s, o, "replaying " + c.file);
  traces::trace_reader out(o.trace_path);
  traces::replay_match m;
  if (as_recorded) {
    const double t0 = p.elapsed_s();
    progress_ticker ticker(p, [&] {  // no fork from here on
      return "comparing with the recording: " +
             count_of_text(rec.events_read() - checked + out.events_read(), rec.events() + out.events(), "events") +
             " read, " +
             duration_text(p.elapsed_s() - t0);
    });
    m = traces::compare_replay(rec, out);
  }
  p.finish();
  const replay_log& log = r.replay;
  const double followed_pct = log.recorded ? 100.0 * double(log.followed) / double(log.recorded) : 0;
  // a message-exact replay must give every actor the recorded messages: the footers' digests
  const traces::delivery_match d = traces::compare_deliveries(rec.footer(), out.footer());
  const bool exact_ok = !log.exact || (log.followed == log.recorded && d.equal);

  if (c.json) {
    nlohmann::json j = sim_json(s, r);
    j["replay"] = {{"recorded", c.file},
                   {"replayed", o.trace_path},
                   {"recorded_turns", log.recorded},
                   {"followed", log.followed},
                   {"skipped", log.skipped},
                   {"reordered", log.reordered},
                   {"free_turns", log.free_turns},
                   {"message_exact", log.exact},
                   {"inexact", log.inexact},
                   {"adopted", log.adopted},
                   {"passed", log.passed},
                   {"deliveries", {{"equal", d.equal},
                                   {"actors", d.actors},
                                   {"actors_equal", d.actors_equal},
                                   {"first_difference", d.first_difference}}},
                   {"diverged", log.diverged},
                   {"ran_out", log.ran_out},
                   {"notes", log.notes}};
    if (as_recorded)
      j["replay"]["identical"] = {{"identical", m.identical},
                                  {"events", m.events},
                                  {"lanes", m.lanes},
                                  {"lanes_equal", m.lanes_equal},
                                  {"first_difference", m.first_difference}};
    std::cout << j.dump(2) << '\n';
  } else {
    print_summary(std::cout, s, r.run);
    print_sim_lines(std::cout, r);
    std::cout << "replay        " << log.followed << " of " << log.recorded << " recorded turns followed ("
              << fixed(followed_pct, 1) << "%"
              << (log.exact ? ", message-exact: the recorded actor, worker and messages" : "") << "), "
              << log.reordered << " out of order, " << log.skipped << " skipped, "
              << (log.exact ? std::to_string(log.adopted) + " message-exact on another worker (theirs never started), " +
                                  std::to_string(log.inexact) + " without their recorded messages, "
                            : "")
              << log.free_turns << " turns after the decisions ran out\n";
    for (const auto& n : log.notes) std::cout << "              " << n << '\n';
    if (log.skipped > 5) std::cout << "              (" << log.skipped - 5 << " more skips not listed)\n";
    if (as_recorded) {
      if (m.identical)
        std::cout << "identical     yes: " << m.events << " recorded events, " << m.lanes
                  << " lanes, every lane's event hash equal to the recording's\n";
      else
        std::cout << "identical     NO (" << m.lanes_equal << " of " << m.lanes << " lanes equal): " << m.first_difference
                  << '\n';
    } else {
      std::cout << "identical     not checked: " << (h.backend == "sim" ? "the machine or cores were overridden"
                                                                          : "a real run's times are not modeled ones")
                << '\n';
    }
    if (d.equal && !d.digests_compared)
      std::cout << "deliveries    equal: every actor's message count (" << d.actors
                << " actors) and the checksum as in the recording's footer; " << d.digest_note << '\n';
    else if (d.equal)
      std::cout << "deliveries    equal: every actor's message count and digest (" << d.actors
                << " actors) and the checksum as in the recording's footer\n";
    else
      std::cout << "deliveries    " << d.actors_equal << " of " << d.actors << " actors as recorded: " << d.first_difference
                << '\n';
    std::cout << "trace         " << o.trace_path << '\n';
  }
  // a real run at full level: every turn message-exact and every digest equal, or exit 1
  const bool ok = r.ok() && (!as_recorded || m.identical) && exact_ok;
  // --step: a session on the replayed trace; --break/--until alone: the state where they stop
  if (c.step || !c.stepping.breakpoints.empty() || c.stepping.until_ns) {
    step_options so = c.stepping;
    so.interactive = so.interactive && c.step;
    std::cout << '\n';
    run_step_session(out, std::cin, std::cout, so);
  }
  return ok ? 0 : 1;
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
  auto c = std::make_shared<replay_cli>();
  CLI::App* cmd = app.add_subcommand(
      "replay", "Re-execute a traced run (simulated or real) in the simulator with its recorded scheduling decisions "
                "forced, deterministically.");
  cmd->footer(replay_footer);
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
  cmd->callback([&chosen, c] {
    if (c->json && (c->step || !c->stepping.breakpoints.empty() || c->stepping.until_ns))
      throw CLI::ValidationError("--json", "cannot be combined with --step, --break or --until");
    chosen = [c] { return replay(*c); };
  });
}

}  // namespace twinsched::cli
