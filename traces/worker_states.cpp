// worker_states' transitions: one switch over the event kinds a worker's state depends on.
#include "worker_states.hpp"

#include "footer.hpp"
#include "format.hpp"
#include "merged_cursor.hpp"

namespace twinsched::traces {

const char* status_name(worker_status s) {
  switch (s) {
    case worker_status::not_started: return "not started";
    case worker_status::looking: return "looking for work";
    case worker_status::running: return "running";
    case worker_status::idle: return "idle";
    case worker_status::parked: return "parked";
    case worker_status::stopped: return "stopped";
  }
  return "?";
}

namespace {

bool in_spell(const worker_lane& l) {
  return l.status == worker_status::idle || l.status == worker_status::parked;
}

worker_span opened(span_kind k, std::uint16_t lane, std::uint64_t t, std::uint32_t actor = 0,
                   std::uint64_t message = 0) {
  worker_span s;
  s.kind = k;
  s.lane = lane;
  s.begin_ns = s.end_ns = t;
  s.actor = actor;
  s.message = message;
  return s;
}

/// Ends the open span `s` at `t`, tells `v`, and marks it closed.
void close(bool& open, worker_span& s, std::uint64_t t, bool ended, worker_visitor& v) {
  if (!open) return;
  open = false;
  s.end_ns = t;
  s.ended = ended;
  v.span(s);
}

}  // namespace

worker_lane& worker_states::at(std::uint16_t w) {
  if (w >= lanes_.size()) lanes_.resize(std::size_t(w) + 1);
  return lanes_[w];
}

const worker_lane& worker_states::lane(std::uint16_t w) const {
  static const worker_lane none{};
  return w < lanes_.size() ? lanes_[w] : none;
}

void worker_states::enter(worker_lane& l, std::uint16_t w, worker_status s, std::uint64_t t, worker_visitor& v) {
  const bool lasting = s == worker_status::running || s == worker_status::idle || s == worker_status::parked;
  if (l.status == s && lasting) return;
  if (l.status != worker_status::not_started) v.segment({w, l.status, l.since, t, l.actor});
  l.status = s;
  l.since = t;
}

void worker_states::apply(const trace_event& e, worker_visitor& v) {
  if (e.worker == outside_lane) return;
  const std::uint16_t w = e.worker;
  const std::uint64_t t = e.time_ns;
  worker_lane& l = at(w);
  l.seen = true;
  if (l.status == worker_status::not_started && e.kind != event_kind::worker_start)
    l.status = worker_status::looking, l.since = t;
  const bool keeps_spell = e.kind == event_kind::park || e.kind == event_kind::unpark || e.kind == event_kind::idle;
  if (!keeps_spell && (in_spell(l) || l.in_idle)) {
    close(l.in_park, l.park, t, false, v);
    close(l.in_idle, l.idle, t, true, v);
    enter(l, w, worker_status::looking, t, v);
  }
  switch (e.kind) {
    case event_kind::worker_start:
      enter(l, w, worker_status::looking, t, v);
      break;
    case event_kind::worker_stop:
      enter(l, w, worker_status::stopped, t, v);
      break;
    case event_kind::run_begin:
      enter(l, w, worker_status::running, t, v);
      l.actor = e.actor;
      l.in_turn = true;
      l.turn = opened(span_kind::turn, w, t, e.actor);
      break;
    case event_kind::run_end:
      close(l.in_message, l.message, t, false, v);  // a message left open (not in a well-formed trace)
      l.turn.processed = e.other;
      close(l.in_turn, l.turn, t, true, v);
      enter(l, w, worker_status::looking, t, v);
      break;
    case event_kind::message_begin:
      l.in_message = true;
      l.message = opened(span_kind::message, w, t, e.actor, e.message);
      ++l.turn.messages;
      break;
    case event_kind::message_end:
      l.turn.off_cpu_ns += e.other;
      l.message.off_cpu_ns = e.other;
      close(l.in_message, l.message, t, true, v);
      break;
    case event_kind::idle:
      if (!in_spell(l)) {
        enter(l, w, worker_status::idle, t, v);
        l.spell_ns = t;
        l.woke_ns = 0;
      }
      if (!l.in_idle) l.in_idle = true, l.idle = opened(span_kind::idle, w, t);
      break;
    case event_kind::park:
      if (!in_spell(l)) l.spell_ns = t;  // a park outside an idle spell starts one
      enter(l, w, worker_status::parked, t, v);
      l.parked_ns = t;
      l.in_park = true;
      l.park = opened(span_kind::parked, w, t);
      break;
    case event_kind::unpark:
      close(l.in_park, l.park, t, true, v);
      if (l.status == worker_status::parked) {
        enter(l, w, worker_status::idle, t, v);
        l.woke_ns = t;
      }
      break;
    default:
      break;
  }
}

void worker_states::finish(std::uint64_t end_ns, worker_visitor& v) {
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    worker_lane& l = lanes_[i];
    if (!l.seen) continue;
    close(l.in_message, l.message, end_ns, false, v);
    close(l.in_turn, l.turn, end_ns, false, v);
    close(l.in_park, l.park, end_ns, false, v);
    close(l.in_idle, l.idle, end_ns, false, v);
    if (l.status != worker_status::not_started && l.status != worker_status::stopped) {
      v.segment({std::uint16_t(i), l.status, l.since, end_ns, l.actor});
      l.since = end_ns;
    }
  }
}

void visit_worker_states(const trace_reader& r, worker_visitor& v) {
  const std::uint64_t start = run_start_ns(r.footer());
  worker_states states;
  merged_cursor cur(r);
  std::uint64_t now = 0;
  while (const trace_event* ep = cur.next()) {
    trace_event e = *ep;
    e.time_ns = now = since_run_start(e.time_ns, start);
    states.apply(e, v);
    v.event(e);
  }
  states.finish(now, v);
}

}  // namespace twinsched::traces
