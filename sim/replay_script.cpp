// replay_script: each worker's recorded turns, one decoded block per worker in memory.
#include "replay_script.hpp"

#include <algorithm>

namespace twinsched {

replay_script::replay_script(const traces::trace_reader& r, unsigned workers, sim_platform& plat)
    : lanes_(workers), plat_(plat) {
  for (unsigned w = 0; w < workers && w < r.header().lanes; ++w)
    lanes_[w].cursor = std::make_unique<traces::lane_cursor>(r, std::uint16_t(w));
  for (const auto& l : r.footer().lanes)
    if (l.lane < workers) log_.recorded += l.by_kind[unsigned(event_kind::run_begin)];
  // a simulated trace replays as recorded (identical), which needs no forcing of messages
  log_.exact = r.header().level == trace_level::full && r.header().backend == "threads";
  if (!log_.exact) return;
  // One scan of every lane: the empty turns at each (actor, start), and the thread starts.
  struct start_event {
    std::uint64_t time_ns;
    unsigned lane;
    std::size_t index;  // in its lane's starts
  };
  std::map<std::uint32_t, std::vector<start_event>> starts;  // by the slot started
  for (unsigned w = 0; w < workers && w < r.header().lanes; ++w) {  // a turn's run_end follows its run_begin
    traces::lane_cursor c(r, std::uint16_t(w));
    std::uint64_t start = 0;
    while (const trace_event* e = c.next()) {
      if (e->kind == event_kind::run_begin) start = e->message;
      if (e->kind == event_kind::run_end && e->other == 0) ++empty_turns_[{e->actor, start}];
      if (e->kind == event_kind::thread_start) {
        starts[e->other].push_back({e->time_ns, w, lanes_[w].starts.size()});
        lanes_[w].starts.push_back(0);
      }
    }
  }
  // One slot's starts, from whichever lanes, are a whole life of that slot apart (it runs,
  // idles for retire_after and retires in between): their recorded times order them.
  for (auto& [slot, v] : starts) {
    std::stable_sort(v.begin(), v.end(),
                     [](const start_event& a, const start_event& b) { return a.time_ns < b.time_ns; });
    for (std::size_t k = 0; k < v.size(); ++k) lanes_[v[k].lane].starts[v[k].index] = std::uint32_t(k);
  }
}

const recorded_turn* replay_script::peek(unsigned w) {
  if (w >= lanes_.size() || !lanes_[w].cursor) return nullptr;
  lane& l = lanes_[w];
  if (l.has_next) return &l.next;
  recorded_turn& t = l.next;
  t.actions.clear();
  t.ids.clear();
  const trace_event* e;
  // between turns: exact mode keeps a retirement and the migrations that precede it (adaptive's
  // try_retire); any other event is not a decision a turn's replay depends on
  for (;;) {
    e = l.cursor->next();
    if (!e) return nullptr;
    if (e->kind == event_kind::run_begin) break;
    if (!log_.exact) continue;
    if (e->kind == event_kind::migrate) t.actions.push_back({recorded_action::kind::migrate, 0, e->actor, e->other, 0});
    if (e->kind == event_kind::thread_retire) {
      t.actor = 0;
      t.time_ns = e->time_ns;
      t.messages = 0;
      t.start = 0;
      t.retire = true;
      t.target = e->other;
      l.has_next = true;
      return &t;
    }
  }
  t.actions.clear();  // migrations between turns without a retirement: not adaptive's
  t.retire = false;
  t.actor = e->actor;
  t.time_ns = e->time_ns;
  t.messages = 0;
  t.start = e->message;  // full level: the actor's receive position
  l.has_next = true;
  // the turn's message_begin events name its messages; its run_end (same lane, same actor)
  // carries their count; migrate and thread_start events inside it are decisions made after
  // its last message so far (exact mode)
  while ((e = l.cursor->peek()) && e->kind != event_kind::run_begin) {
    l.cursor->next();
    if (e->kind == event_kind::message_begin && e->actor == t.actor) t.ids.push_back(e->message);
    if (log_.exact && e->kind == event_kind::migrate)
      t.actions.push_back({recorded_action::kind::migrate, std::uint32_t(t.ids.size()), e->actor, e->other, 0});
    if (log_.exact && e->kind == event_kind::thread_start) {
      const std::uint32_t rank = l.started < l.starts.size() ? l.starts[l.started] : 0;
      ++l.started;
      t.actions.push_back({recorded_action::kind::start, std::uint32_t(t.ids.size()), 0, e->other, rank});
    }
    if (e->kind == event_kind::run_end && e->actor == t.actor) {
      t.messages = e->other;
      break;
    }
  }
  return &t;
}

std::uint64_t replay_script::advance(unsigned w) {
  if (w >= lanes_.size()) return 1;
  const recorded_turn* t = peek(w);
  if (!t) return ++lanes_[w].taken;
  lanes_[w].has_next = false;
  return t->retire ? lanes_[w].taken : ++lanes_[w].taken;
}

}  // namespace twinsched
