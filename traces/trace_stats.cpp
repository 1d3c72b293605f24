// The single pass that computes trace_stats: the workers' states (worker_states) plus a map of in-flight sends.
#include "trace_stats.hpp"

#include <unordered_map>

#include "format.hpp"
#include "merged_cursor.hpp"
#include "worker_states.hpp"

namespace twinsched::traces {

const char* kind_name(unsigned kind) {
  static const char* const names[16] = {
      "worker_start", "worker_stop", "send",    "schedule", "run_begin", "run_end",      "message_begin", "message_end",
      "steal",        "donate",      "migrate", "park",     "unpark",    "thread_start", "thread_retire", "idle"};
  return kind < 16 ? names[kind] : "?";
}

namespace {

/// Adds up each worker's time in its turns, parks and idle spells, when they end.
struct time_shares : worker_visitor {
  std::map<std::uint16_t, worker_time>& workers;
  explicit time_shares(std::map<std::uint16_t, worker_time>& w) : workers(w) {}
  void span(const worker_span& s) override {
    if (!s.ended) return;
    worker_time& w = workers[s.lane];
    const std::uint64_t d = s.end_ns - s.begin_ns;
    switch (s.kind) {
      case span_kind::turn: w.running_ns += d; break;
      case span_kind::parked: w.parked_ns += d; break;
      case span_kind::idle: w.idle_ns += d; break;
      case span_kind::message: break;
    }
  }
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
  worker_states states;
  time_shares shares(st.workers);
  merged_cursor cur(r);
  bool first = true;
  while (const trace_event* e = cur.next()) {
    ++st.events;
    ++st.by_kind[unsigned(e->kind) & 15];
    if (first) st.first_ns = e->time_ns, first = false;
    st.last_ns = e->time_ns;
    const std::uint16_t lane = e->worker;
    const bool started = states.lane(lane).seen;
    states.apply(*e, shares);
    if (lane != outside_lane) {
      worker_time& w = st.workers[lane];
      if (!started) w.start_ns = w.stop_ns = e->time_ns;  // a worker's span: its first event to its last
      if (w.stop_ns < e->time_ns) w.stop_ns = e->time_ns;
      if (e->kind == event_kind::run_begin) ++w.turns;
      if (e->kind == event_kind::run_end) w.messages += e->other;  // the turn's messages: at decisions level too
    }
    if (e->kind == event_kind::send) {
      auto it = early.find(e->message);
      if (it == early.end()) {
        in_flight[e->message] = e->time_ns;
      } else {
        ++st.reordered;
        add_delay(0, it->second.second);
        early.erase(it);
      }
    } else if (e->kind == event_kind::message_begin) {
      auto it = in_flight.find(e->message);
      if (it == in_flight.end()) {
        early.emplace(e->message, std::make_pair(e->time_ns, e->actor));
      } else {
        add_delay(e->time_ns > it->second ? e->time_ns - it->second : 0, e->actor);
        in_flight.erase(it);
      }
    }
  }
  st.unmatched = early.size();
  return st;
}

}  // namespace twinsched::traces
