// Stepping's text: event lines with the fields each kind carries; the workers, queues and mailboxes views.
#include "step_text.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "format.hpp"
#include "trace_stats.hpp"

namespace twinsched::traces {
namespace {

std::string message_label(std::uint64_t m) {
  return "msg " + std::to_string(m >> sender_shift) + ":" + std::to_string(m & seq_mask);
}

const char* push_reason_name(std::uint32_t r) {
  switch (r) {
    case 0: return "sent";
    case 1: return "yielded";
    case 2: return "external";
    default: return "reason ?";
  }
}

std::string actor_label(std::uint32_t a) { return "actor " + std::to_string(a); }

/// The kind-specific part of an event line.
std::string details(const trace_event& e) {
  switch (e.kind) {
    case event_kind::send: return "to " + actor_label(e.actor) + "  " + message_label(e.message);
    case event_kind::schedule: {
      std::string s = actor_label(e.actor);
      if (e.message && e.other == 0) s += "  " + message_label(e.message);
      return s + "  (" + push_reason_name(e.other) + ")";
    }
    case event_kind::run_begin:
      if (e.other == ~0u) return actor_label(e.actor) + "  (first turn)";
      return actor_label(e.actor) + "  (last ran on " + worker_label(e.other) + ")";
    case event_kind::run_end:  // other: the messages the turn processed (0 in traces before it was recorded)
      if (e.other == 0) return actor_label(e.actor);
      return actor_label(e.actor) + "  (" + std::to_string(e.other) + (e.other == 1 ? " message)" : " messages)");
    case event_kind::message_begin:
    case event_kind::message_end: return actor_label(e.actor) + "  " + message_label(e.message);
    case event_kind::steal: return actor_label(e.actor) + "  from " + worker_label(e.other);
    case event_kind::donate:  // models/policy/donation.hpp: actor = the donor, other = the recipient
      return message_label(e.message) + "  from " + actor_label(e.actor) + " to " + actor_label(e.other);
    case event_kind::migrate: return actor_label(e.actor) + "  to " + worker_label(e.other);
    case event_kind::thread_start: return "starts " + worker_label(e.other);
    case event_kind::thread_retire: return "(its actors go to " + worker_label(e.other) + ")";
    default: return "";
  }
}

std::string worker_state(const worker_view& w) {
  using st = worker_view::status;
  switch (w.state) {
    case st::not_started: return "not started";
    case st::stopped: return "stopped (at " + time_label(w.since) + ")";
    case st::running: return "running " + actor_label(w.actor) + " (since " + time_label(w.since) + ")";
    case st::looking: return "looking for work (since " + time_label(w.since) + ")";
    case st::parked:
      return "parked (since " + time_label(w.parked_ns) + ", idle since " + time_label(w.since) + ")";
    case st::idle: {
      std::string s = "idle (since " + time_label(w.since);
      if (w.woke_ns) s += ", unparked at " + time_label(w.woke_ns);
      return s + ")";
    }
  }
  return "?";
}

}  // namespace

std::string worker_label(std::uint32_t w) { return w == outside_worker ? "outside" : "w" + std::to_string(w); }

std::string time_label(std::uint64_t ns) {
  char b[40];
  std::snprintf(b, sizeof b, "%.6f ms", double(ns) * 1e-6);
  return b;
}

std::string event_line(std::uint64_t ordinal, const trace_event& e) {
  char b[96];
  std::snprintf(b, sizeof b, "#%-7llu %13s  %-7s %-13s ", static_cast<unsigned long long>(ordinal),
                time_label(e.time_ns).c_str(), worker_label(e.worker).c_str(), kind_name(unsigned(e.kind)));
  std::string s = b;
  const std::string d = details(e);
  if (d.empty()) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
  }
  return s + " " + d;
}

void print_workers(std::ostream& out, const step_state& s) {
  const auto& ws = s.workers();
  out << "workers (" << ws.size() << "):\n";
  char b[64];
  for (std::size_t i = 0; i < ws.size(); ++i) {
    const worker_view& w = ws[i];
    out << "  " << worker_label(std::uint32_t(i));
    for (std::size_t pad = worker_label(std::uint32_t(i)).size(); pad < 6; ++pad) out << ' ';
    out << worker_state(w);
    if (w.turns || w.steals || w.parks) {
      std::snprintf(b, sizeof b, "   turns %llu, messages %llu, steals %llu, parks %llu",
                    static_cast<unsigned long long>(w.turns), static_cast<unsigned long long>(w.messages),
                    static_cast<unsigned long long>(w.steals), static_cast<unsigned long long>(w.parks));
      out << b;
    }
    out << '\n';
  }
}

void print_queues(std::ostream& out, const step_state& s, std::size_t per_group) {
  const auto groups = s.runnable();
  std::size_t total = 0;
  for (const auto& g : groups) total += g.actors.size();
  out << "runnable actors, by the worker that queued them (steals and migrations move them), oldest queued first: "
      << total << "\n";
  if (groups.empty()) out << "  none\n";
  for (const auto& g : groups) {
    std::string label = worker_label(g.queue);
    label.resize(std::max<std::size_t>(label.size(), 8), ' ');
    out << "  " << label << g.actors.size() << ":";
    for (std::size_t i = 0; i < g.actors.size() && i < per_group; ++i) out << ' ' << g.actors[i];
    if (g.actors.size() > per_group) out << " ... (+" << g.actors.size() - per_group << " more)";
    out << "\n";
  }
}

void print_mailboxes(std::ostream& out, const step_state& s, std::size_t top, const std::string& level) {
  if (!s.mailboxes_known()) {
    out << "mailboxes: not known: mailbox sizes need a full-level trace (sends and message events); this one is "
        << level << " level\n";
    return;
  }
  const auto largest = s.largest_mailboxes(top);
  out << "mailboxes: " << s.mailbox_total() << " messages waiting in " << s.mailboxes_nonempty() << " actors";
  if (largest.empty()) {
    out << "\n";
    return;
  }
  out << "; largest " << largest.size() << ":\n";
  char b[64];
  for (const auto& [actor, n] : largest) {
    std::snprintf(b, sizeof b, "  actor %-10u %llu\n", actor, static_cast<unsigned long long>(n));
    out << b;
  }
}

void print_counts(std::ostream& out, const step_state& s) {
  out << "events applied: " << s.events();
  bool first = true;
  for (unsigned k = 0; k < kind_count; ++k) {
    if (!s.by_kind()[k]) continue;
    out << (first ? " (" : ", ") << kind_name(k) << ' ' << s.by_kind()[k];
    first = false;
  }
  out << (first ? "\n" : ")\n");
}

}  // namespace twinsched::traces
