// Replaying a trace: its simulation options, and the outcome against the recording as text or JSON.
#include "replay_outcome.hpp"

#include <algorithm>

#include "sim_summary.hpp"
#include "traces/run_summary.hpp"

namespace twinsched {

std::string replay_trace_path(const std::string& recorded) {
  const std::string ext = ".tst";
  if (recorded.size() > ext.size() && recorded.compare(recorded.size() - ext.size(), ext.size(), ext) == 0)
    return recorded.substr(0, recorded.size() - ext.size()) + ".replay.tst";
  return recorded + ".replay.tst";
}

sim_options replay_options(const traces::trace_header& h, const scenario& s, const std::string& machine,
                           std::uint32_t cores) {
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
  if (!machine.empty()) o.machine = machine;
  if (cores) o.cores = cores;
  return o;
}

bool replay_outcome::ok() const {
  const replay_log& log = r.replay;
  // a real run at full level: every turn message-exact and every digest equal
  const bool exact_ok = !log.exact || (log.followed == log.recorded && deliveries.equal);
  return r.ok() && (!as_recorded || match.identical) && exact_ok;
}

nlohmann::json replay_json(const scenario& s, const replay_outcome& o) {
  const replay_log& log = o.r.replay;
  const traces::delivery_match& d = o.deliveries;
  nlohmann::json j = sim_json(s, o.r);
  j["replay"] = {{"recorded", o.recorded},
                 {"replayed", o.replayed},
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
  if (o.as_recorded)
    j["replay"]["identical"] = {{"identical", o.match.identical},
                                {"events", o.match.events},
                                {"lanes", o.match.lanes},
                                {"lanes_equal", o.match.lanes_equal},
                                {"first_difference", o.match.first_difference}};
  return j;
}

void print_replay(std::ostream& out, const scenario& s, const replay_outcome& o) {
  const replay_log& log = o.r.replay;
  const traces::replay_match& m = o.match;
  const traces::delivery_match& d = o.deliveries;
  const double followed_pct = log.recorded ? 100.0 * double(log.followed) / double(log.recorded) : 0;
  traces::print_summary(out, s, o.r.run);
  print_sim_lines(out, o.r);
  out << "replay        " << log.followed << " of " << log.recorded << " recorded turns followed ("
      << traces::fixed(followed_pct, 1) << "%"
      << (log.exact ? ", message-exact: the recorded actor, worker and messages" : "") << "), " << log.reordered
      << " out of order, " << log.skipped << " skipped, "
      << (log.exact ? std::to_string(log.adopted) + " message-exact on another worker (theirs never started), " +
                          std::to_string(log.inexact) + " without their recorded messages, "
                    : "")
      << log.free_turns << " turns after the decisions ran out\n";
  for (const auto& n : log.notes) out << "              " << n << '\n';
  if (log.skipped > 5) out << "              (" << log.skipped - 5 << " more skips not listed)\n";
  if (o.as_recorded) {
    if (m.identical)
      out << "identical     yes: " << m.events << " recorded events, " << m.lanes
          << " lanes, every lane's event hash equal to the recording's\n";
    else
      out << "identical     NO (" << m.lanes_equal << " of " << m.lanes << " lanes equal): " << m.first_difference
          << '\n';
  } else {
    out << "identical     not checked: "
        << (o.backend == "sim" ? "the machine or cores were overridden" : "a real run's times are not modeled ones")
        << '\n';
  }
  if (d.equal && !d.digests_compared)
    out << "deliveries    equal: every actor's message count (" << d.actors
        << " actors) and the checksum as in the recording's footer; " << d.digest_note << '\n';
  else if (d.equal)
    out << "deliveries    equal: every actor's message count and digest (" << d.actors
        << " actors) and the checksum as in the recording's footer\n";
  else
    out << "deliveries    " << d.actors_equal << " of " << d.actors << " actors as recorded: " << d.first_difference
        << '\n';
  out << "trace         " << o.replayed << '\n';
}

}  // namespace twinsched
