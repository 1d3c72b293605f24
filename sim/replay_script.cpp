// replay_script: each worker's recorded turns, one decoded block per worker in memory.
#include "replay_script.hpp"

namespace twinsched {

replay_script::replay_script(const traces::trace_reader& r, unsigned workers, sim_platform& plat)
    : lanes_(workers), plat_(plat) {
  for (unsigned w = 0; w < workers && w < r.header().lanes; ++w)
    lanes_[w].cursor = std::make_unique<traces::lane_cursor>(r, std::uint16_t(w));
  for (const auto& l : r.footer().lanes)
    if (l.lane < workers) log_.recorded += l.by_kind[unsigned(event_kind::run_begin)];
  // a simulated trace replays as recorded (identical), which needs no forcing of messages
  log_.exact = r.header().level == trace_level::full && r.header().backend == "threads";
}

const recorded_turn* replay_script::peek(unsigned w) {
  if (w >= lanes_.size() || !lanes_[w].cursor) return nullptr;
  lane& l = lanes_[w];
  if (l.has_next) return &l.next;
  const trace_event* e = l.cursor->next();
  while (e && e->kind != event_kind::run_begin) e = l.cursor->next();
  if (!e) return nullptr;
  l.next.actor = e->actor;
  l.next.time_ns = e->time_ns;
  l.next.messages = 0;
  l.next.start = e->message;  // full level: the actor's receive position
  l.next.ids.clear();
  l.has_next = true;
  // the turn's message_begin events name its messages; its run_end (same lane, same actor)
  // carries their count
  while ((e = l.cursor->peek()) && e->kind != event_kind::run_begin) {
    l.cursor->next();
    if (e->kind == event_kind::message_begin && e->actor == l.next.actor) l.next.ids.push_back(e->message);
    if (e->kind == event_kind::run_end && e->actor == l.next.actor) {
      l.next.messages = e->other;
      break;
    }
  }
  return &l.next;
}

std::uint64_t replay_script::advance(unsigned w) {
  if (peek(w)) lanes_[w].has_next = false;
  return ++lanes_[w].taken;
}

}  // namespace twinsched
