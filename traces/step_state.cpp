// step_state's transitions: one switch over the event kinds, plus the on-demand views of queues and mailboxes.
#include "step_state.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "format.hpp"

namespace twinsched::traces {

step_state::step_state(unsigned worker_lanes, bool full)
    : full_(full), workers_(std::min<unsigned>(worker_lanes, outside_lane)),
      donations_(workers_.size()) {}

worker_view& step_state::lane(std::uint16_t w) {
  if (w >= workers_.size()) {
    workers_.resize(std::size_t(w) + 1);
    donations_.resize(workers_.size());
  }
  return workers_[w];
}

const actor_view* step_state::actor(std::uint32_t id) const {
  auto it = actors_.find(id);
  return it == actors_.end() ? nullptr : &it->second;
}

void step_state::push(std::uint32_t id, std::uint16_t queue, std::uint64_t t) {
  actor_view& a = at(id);
  ++a.pending;
  if (a.moved_early) {  // a steal or migrate already placed it: that is where it is
    a.moved_early = false;
    return;
  }
  a.queue = queue;
  a.queued_ns = t;
  a.queued_event = events_;
}

void step_state::move(std::uint32_t id, std::uint16_t queue, std::uint64_t t) {
  actor_view& a = at(id);
  a.moved_early = a.pending <= 0;
  a.queue = queue;
  a.queued_ns = t;
  a.queued_event = events_;
}

void step_state::donate(const trace_event& e) {
  at(e.actor).mailbox -= 1;
  at(e.other).mailbox += 1;
  donation_step& d = donations_[e.worker];
  if (!d.open || d.donor != e.actor) {
    d.open = true;
    d.donor = e.actor;
    d.pushed.clear();
  }
  if (std::find(d.pushed.begin(), d.pushed.end(), e.other) == d.pushed.end()) {
    d.pushed.push_back(e.other);
    push(e.other, e.worker, e.time_ns);
  }
}

void step_state::apply(const trace_event& e) {
  ++events_;
  ++by_kind_[unsigned(e.kind) & 15];
  now_ns_ = e.time_ns;
  const bool on_worker = e.worker != outside_lane;
  worker_view* w = on_worker ? &lane(e.worker) : nullptr;
  if (w) {
    if (e.kind != event_kind::donate) donations_[e.worker].open = false;
    static worker_visitor nothing;  // stepping shows the state now, not the spans it ended
    states_.apply(e, nothing);
    const worker_lane& l = states_.lane(e.worker);
    w->state = l.status;
    const bool spell = l.status == worker_status::idle || l.status == worker_status::parked;
    w->since = spell ? l.spell_ns : l.since;
    w->parked_ns = l.parked_ns;
    w->woke_ns = l.woke_ns;
    w->actor = l.actor;
  }
  switch (e.kind) {
    case event_kind::send:
      ++at(e.actor).mailbox;
      break;
    case event_kind::schedule:
      push(e.actor, e.worker, e.time_ns);
      break;
    case event_kind::run_begin:
      --at(e.actor).pending;
      if (w) ++w->turns;
      break;
    case event_kind::message_begin:
      --at(e.actor).mailbox;
      if (w) ++w->messages;
      break;
    case event_kind::steal:
      move(e.actor, e.worker, e.time_ns);
      if (w) ++w->steals;
      break;
    case event_kind::migrate:
      if (e.other < outside_lane) move(e.actor, std::uint16_t(e.other), e.time_ns);
      break;
    case event_kind::donate:
      if (w) donate(e);
      break;
    case event_kind::park:
      if (w) ++w->parks;
      break;
    default:  // the worker's state (worker_states) only, or counted only
      break;
  }
}

std::vector<runnable_group> step_state::runnable() const {
  // (group rank, time, ordinal, actor): lanes ascending, the outside group (0xffff) last
  std::vector<std::tuple<std::uint16_t, std::uint64_t, std::uint64_t, std::uint32_t>> r;
  for (const auto& [id, a] : actors_)
    if (a.runnable()) r.emplace_back(a.queue, a.queued_ns, a.queued_event, id);
  std::sort(r.begin(), r.end());
  std::vector<runnable_group> groups;
  for (const auto& [q, t, n, id] : r) {
    if (groups.empty() || groups.back().queue != q) groups.push_back({q, {}});
    groups.back().actors.push_back(id);
  }
  return groups;
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> step_state::largest_mailboxes(std::size_t n) const {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> v;
  for (const auto& [id, a] : actors_)
    if (a.mailbox_size()) v.emplace_back(id, a.mailbox_size());
  auto larger = [](const auto& x, const auto& y) {
    return x.second != y.second ? x.second > y.second : x.first < y.first;
  };
  if (v.size() > n) {
    std::partial_sort(v.begin(), v.begin() + std::ptrdiff_t(n), v.end(), larger);
    v.resize(n);
  } else {
    std::sort(v.begin(), v.end(), larger);
  }
  return v;
}

std::uint64_t step_state::mailbox_total() const {
  std::uint64_t t = 0;
  for (const auto& [id, a] : actors_) t += a.mailbox_size();
  return t;
}

std::size_t step_state::mailboxes_nonempty() const {
  std::size_t n = 0;
  for (const auto& [id, a] : actors_) n += a.mailbox_size() != 0;
  return n;
}

}  // namespace twinsched::traces
