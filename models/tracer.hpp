// The trace gate and emitter the worker loop and policies share: one level check, one platform call per event.
#pragma once
#include <cstdint>

#include "platform.hpp"
#include "trace_event.hpp"

namespace twinsched {

/// Emits events into the platform's recorder (platform.hpp contract 8). Policies that record
/// their own decisions (stealing: steal) receive one in their policy_setup (policy.hpp)
/// and check `on(level)` before each event, exactly like the worker loop.
template <class P>
class tracer {
 public:
  tracer(P& plat, trace_level level) : plat_(plat), level_(level) {}

  bool on(trace_level l) const { return level_ >= l; }

  // Always inlined down to the platform's buffer store: an event built in memory and read
  // back with wider loads than it was written with stalls store forwarding (~15 cycles).
  [[gnu::always_inline]] void operator()(event_kind k, unsigned worker, std::uint32_t actor, std::uint64_t msg,
                                         std::uint32_t other) const {
    plat_.trace(event(k, worker, actor, msg, other));
  }
  /// The same through `worker`'s own sink (P::sink_of, looked up once: the worker loop).
  [[gnu::always_inline]] void operator()(typename P::trace_sink sink, event_kind k, unsigned worker,
                                         std::uint32_t actor, std::uint64_t msg, std::uint32_t other) const {
    plat_.trace(sink, event(k, worker, actor, msg, other));
  }
  trace_level level() const { return level_; }

 private:
  [[gnu::always_inline]] trace_event event(event_kind k, unsigned worker, std::uint32_t actor, std::uint64_t msg,
                                           std::uint32_t other) const {
    std::uint64_t t = 0;
    if constexpr (!stamps_trace_events<P>) t = plat_.now_ns();
    return trace_event{t, msg, actor, other, std::uint16_t(worker), k};
  }

  P& plat_;
  trace_level level_;
};

}  // namespace twinsched
