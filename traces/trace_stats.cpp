// The single pass that computes trace_stats: per-lane state machines plus a map of in-flight sends.
#include "trace_stats.hpp"

#include <unordered_map>

#include "format.hpp"
#include "merged_cursor.hpp"

namespace twinsched::traces {

const char* kind_name(unsigned kind) {
  static const char* const names[16] = {
      "worker_start", "worker_stop", "send",    "schedule", "run_begin", "run_end",      "message_begin", "message_end",
      "steal",        "donate",      "migrate", "park",     "unpark",    "thread_start", "thread_retire", "idle"};
  return kind < 16 ? names[kind] : "?";
}

namespace {

/// Where a worker is in its loop, to attribute the time up to its next event.
struct lane_state {
  std::uint64_t run_since = 0, park_since = 0, idle_since = 0;
  bool seen = false, running = false, parked = false, idle = false;
};

}  // namespace

trace_stats compute_stats(const trace_reader& r) {
  trace_stats st;
  std::unordered_map<std::uint32_t, std::uint32_t> group_of;
  for (const auto& a : r.footer().actors) group_of.emplace(a.id, a.group);
  std::unordered_map<std::uint64_t, std::uint64_t> in_flight;  // message -> send time
  // message -> (begin time, receiving actor) for deliveries seen before their send: on the
  // real backend, times between clock reads are interpolated, so across workers a send and
  // its delivery less than ~2 us apart can come out in the wrong order. Their delay is 0.
  std::unordered_map<std::uint64_t, std::pair<std::uint64_t, std::uint32_t>> early;
  auto add_delay = [&](std::uint64_t d, std::uint32_t actor) {
    st.queueing.add(d);
    auto g = group_of.find(actor);
    st.queueing_by_group[g == group_of.end() ? 0 : g->second].add(d);
  };
  std::map<std::uint16_t, lane_state> lanes;
  merged_cursor cur(r);
  bool first = true;
  while (const trace_event* e = cur.next()) {
    ++st.events;
    ++st.by_kind[unsigned(e->kind) & 15];
    if (first) st.first_ns = e->time_ns, first = false;
    st.last_ns = e->time_ns;
    const std::uint16_t lane = e->worker;
    if (e->kind == event_kind::send) {
      auto it = early.find(e->message);
      if (it == early.end()) {
        in_flight[e->message] = e->time_ns;
      } else {
        ++st.reordered;
        add_delay(0, it->second.second);
        early.erase(it);
      }
      continue;
    }
    if (e->kind == event_kind::message_begin) {
      auto it = in_flight.find(e->message);
      if (it == in_flight.end()) {
        early.emplace(e->message, std::make_pair(e->time_ns, e->actor));
      } else {
        add_delay(e->time_ns > it->second ? e->time_ns - it->second : 0, e->actor);
        in_flight.erase(it);
      }
    }
    if (lane == outside_lane) continue;
    worker_time& w = st.workers[lane];
    lane_state& ls = lanes[lane];
    if (!ls.seen) {  // a worker's span starts at its first event (worker_start, or thread_start)
      ls.seen = true;
      w.start_ns = w.stop_ns = e->time_ns;
    }
    if (ls.idle) {  // an idle spell ends at the worker's next event other than park/unpark
      if (e->kind != event_kind::park && e->kind != event_kind::unpark) {
        w.idle_ns += e->time_ns - ls.idle_since;
        ls.idle = false;
      }
    }
    switch (e->kind) {
      case event_kind::run_begin:
        ls.running = true;
        ls.run_since = e->time_ns;
        ++w.turns;
        break;
      case event_kind::run_end:
        if (ls.running) w.running_ns += e->time_ns - ls.run_since;
        ls.running = false;
        w.messages += e->other;  // the turn's messages: at decisions level too (no message events)
        break;
      case event_kind::park:
        ls.parked = true;
        ls.park_since = e->time_ns;
        break;
      case event_kind::unpark:
        if (ls.parked) w.parked_ns += e->time_ns - ls.park_since;
        ls.parked = false;
        break;
      case event_kind::idle:
        ls.idle = true;
        ls.idle_since = e->time_ns;
        break;
      default:
        break;
    }
    if (w.stop_ns < e->time_ns) w.stop_ns = e->time_ns;
  }
  st.unmatched = early.size();
  return st;
}

}  // namespace twinsched::traces
