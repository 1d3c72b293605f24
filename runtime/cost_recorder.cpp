// The time-stamp counter around each turn's own code, binned per behavior type and tag.
#include "cost_recorder.hpp"

#include <time.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "thread_platform.hpp"
#include "tsc_clock.hpp"

namespace twinsched {

cost_recorder::cost_recorder(unsigned worker_slots) : slots_(worker_slots + 1) {
  for (slot& s : slots_) s.window.reserve(window_turns);
  ns_per_tick_ = 1.0 / burn_ticks_per_ns();
  // What the measurement itself reads: an empty turn (begin, end) and an empty runtime part
  // (pause, resume) timed through the same virtual calls a worker makes, on a slot of their
  // own; the medians of many are taken off every turn. A behavior with no code of its own
  // then measures near 0, as the calibrated machine model, whose per-message cost was fitted
  // on such behaviors, already counts what little they do.
  turn_cost_hook* volatile self = this;
  const unsigned scratch = worker_slots;
  std::vector<double> turns, parts;
  for (int i = 0; i < 2001; ++i) {
    self->begin(scratch);
    turns.push_back(double(finish(slots_[scratch])));
    self->begin(scratch);
    self->pause(scratch);
    self->resume(scratch);
    parts.push_back(double(finish(slots_[scratch])));
  }
  std::nth_element(turns.begin(), turns.begin() + 1000, turns.end());
  std::nth_element(parts.begin(), parts.begin() + 1000, parts.end());
  empty_turn_ticks_ = turns[1000];
  empty_part_ticks_ = std::max(0.0, parts[1000] - turns[1000]);
  slots_.pop_back();
}

std::uint64_t cost_recorder::finish(slot& s) {
  s.own += tsc_clock::read() - s.mark;
  ++s.intervals;
  return s.own;
}

void cost_recorder::begin(unsigned w) {
  slot& s = slots_[w];
  s.own = s.intervals = 0;
  if (s.wall_ticks == 0) {  // the worker's first turn: the preemption check starts here
    s.cpu_ns = thread_platform::cpu_ns();
    s.wall_ticks = tsc_clock::read();
  } else if (!s.window.empty() && double(tsc_clock::read() - s.last_end) * ns_per_tick_ > double(preempted_gap_ns)) {
    check(s, s.last_end);  // the worker was idle since its last turn (parked: no CPU): judge the window up to there
  }
  s.mark = tsc_clock::read();
}

void cost_recorder::pause(unsigned w) {
  slot& s = slots_[w];
  s.own += tsc_clock::read() - s.mark;
  ++s.intervals;
}

void cost_recorder::resume(unsigned w) { slots_[w].mark = tsc_clock::read(); }

std::size_t cost_recorder::kind_of(slot& s, const std::type_info& behavior, std::uint32_t tag) {
  if (s.last < s.kinds.size() && *s.kinds[s.last].type == behavior && s.kinds[s.last].tag == tag) return s.last;
  auto it = std::find_if(s.kinds.begin(), s.kinds.end(), [&](const kind& k) { return *k.type == behavior && k.tag == tag; });
  if (it == s.kinds.end()) it = s.kinds.insert(s.kinds.end(), kind{&behavior, tag, std::make_unique<log_histogram>()});
  return s.last = std::size_t(it - s.kinds.begin());
}

std::uint64_t cost_recorder::end(unsigned w, const std::type_info& behavior, std::uint32_t tag,
                                 std::uint64_t burned_ns, std::uint64_t) {
  slot& s = slots_[w];
  finish(s);
  const std::uint64_t now = tsc_clock::read();
  const double own_ticks = double(s.own) - empty_turn_ticks_ - double(s.intervals - 1) * empty_part_ticks_;
  const double own_ns = own_ticks * ns_per_tick_ - double(burned_ns);
  s.window.push_back({kind_of(s, behavior, tag), own_ns > 0 ? std::uint64_t(own_ns + 0.5) : 0});
  s.last_end = now;
  if (s.window.size() >= window_turns || double(now - s.wall_ticks) * ns_per_tick_ > window_ns) check(s, now);
  return 0;
}

void cost_recorder::check(slot& s, std::uint64_t until) {
  // Did the thread lose its core between the last check and `until`? Then any turn of the
  // window may hold the gap. (CPU time spent idle after `until` only makes that less likely.)
  const std::uint64_t cpu = thread_platform::cpu_ns();
  const bool preempted = double(until - s.wall_ticks) * ns_per_tick_ > double(cpu - s.cpu_ns) + double(preempted_gap_ns);
  if (preempted)
    s.preempted += s.window.size();
  else
    for (const timed& t : s.window) s.kinds[t.kind].hist->add(t.ns);
  s.window.clear();
  s.cpu_ns = cpu;
  s.wall_ticks = tsc_clock::read();
}

std::uint64_t cost_recorder::preempted_turns() const {
  std::uint64_t n = 0;
  for (const slot& s : slots_) n += s.preempted;
  return n;
}

cost_profile cost_recorder::profile() {
  // Each worker's last window: its thread has ended, so its CPU clock cannot be read now. A
  // preemption in those last turns stays unseen, as it would in a window still open.
  for (slot& s : slots_) {
    for (const timed& t : s.window) s.kinds[t.kind].hist->add(t.ns);
    s.window.clear();
  }
  std::map<std::pair<std::string, std::uint32_t>, log_histogram> merged;  // by name: sorted, deterministic
  for (const slot& s : slots_)
    for (const kind& k : s.kinds) merged[{behavior_type_name(*k.type), k.tag}].merge(*k.hist);
  cost_profile p;
  p.preempted_turns = preempted_turns();
  for (const auto& [key, hist] : merged)
    if (hist.count()) p.kinds.push_back(kind_cost(key.first, key.second, hist));  // none: every turn was preempted
  return p;
}

}  // namespace twinsched
