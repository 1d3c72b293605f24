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

namespace {
std::uint64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return std::uint64_t(t.tv_sec) * 1'000'000'000u + std::uint64_t(t.tv_nsec);
}
}  // namespace

cost_recorder::cost_recorder(unsigned worker_slots) : slots_(worker_slots) {
  ns_per_tick_ = 1.0 / burn_ticks_per_ns();
  // What one timed interval holds of the counter's own cost: the median of back-to-back pairs.
  std::vector<std::uint64_t> pairs;
  for (int i = 0; i < 201; ++i) {
    const std::uint64_t a = tsc_clock::read(), b = tsc_clock::read();
    pairs.push_back(b - a);
  }
  std::nth_element(pairs.begin(), pairs.begin() + 100, pairs.end());
  read_ticks_ = double(pairs[100]);
}

void cost_recorder::begin(unsigned w) {
  slot& s = slots_[w];
  s.own = s.intervals = 0;
  if (s.wall_ticks == 0) {  // the worker's first turn: the preemption check starts here
    s.cpu_ns = thread_cpu_ns();
    s.wall_ticks = tsc_clock::read();
  }
  s.mark = tsc_clock::read();
}

void cost_recorder::pause(unsigned w) {
  slot& s = slots_[w];
  s.own += tsc_clock::read() - s.mark;
  ++s.intervals;
}

void cost_recorder::resume(unsigned w) { slots_[w].mark = tsc_clock::read(); }

cost_recorder::kind& cost_recorder::kind_of(slot& s, const std::type_info& behavior, std::uint32_t tag) {
  if (s.last < s.kinds.size() && *s.kinds[s.last].type == behavior && s.kinds[s.last].tag == tag) return s.kinds[s.last];
  auto it = std::find_if(s.kinds.begin(), s.kinds.end(), [&](const kind& k) { return *k.type == behavior && k.tag == tag; });
  if (it == s.kinds.end()) it = s.kinds.insert(s.kinds.end(), kind{&behavior, tag, std::make_unique<log_histogram>()});
  s.last = std::size_t(it - s.kinds.begin());
  return *it;
}

std::uint64_t cost_recorder::end(unsigned w, const std::type_info& behavior, std::uint32_t tag,
                                 std::uint64_t burned_ns, std::uint64_t) {
  slot& s = slots_[w];
  const std::uint64_t now = tsc_clock::read();
  s.own += now - s.mark;
  ++s.intervals;
  const double own_ns = (double(s.own) - double(s.intervals) * read_ticks_) * ns_per_tick_ - double(burned_ns);
  // Did the thread lose its core since the last check? Then this turn may hold the gap.
  const std::uint64_t cpu = thread_cpu_ns();
  const double wall_ns = double(now - s.wall_ticks) * ns_per_tick_, cpu_ns = double(cpu - s.cpu_ns);
  s.cpu_ns = cpu;
  s.wall_ticks = tsc_clock::read();
  if (wall_ns > cpu_ns + double(preempted_gap_ns)) {
    ++s.preempted;
    return 0;
  }
  kind_of(s, behavior, tag).hist->add(own_ns > 0 ? std::uint64_t(own_ns + 0.5) : 0);
  return 0;
}

std::uint64_t cost_recorder::preempted_turns() const {
  std::uint64_t n = 0;
  for (const slot& s : slots_) n += s.preempted;
  return n;
}

cost_profile cost_recorder::profile() const {
  std::map<std::pair<std::string, std::uint32_t>, log_histogram> merged;  // by name: sorted, deterministic
  for (const slot& s : slots_)
    for (const kind& k : s.kinds) merged[{behavior_type_name(*k.type), k.tag}].merge(*k.hist);
  cost_profile p;
  p.preempted_turns = preempted_turns();
  for (const auto& [key, hist] : merged) p.kinds.push_back(kind_cost(key.first, key.second, hist));
  return p;
}

}  // namespace twinsched
