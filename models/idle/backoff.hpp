// Idle strategy `backoff`: spin, then yield, then park for a time that doubles from min to max.
#pragma once
#include <algorithm>
#include <cstdint>

#include "idle_decision.hpp"

namespace twinsched {
class backoff_idle {
 public:
  static constexpr const char* name = "backoff";
  /// `crowd`: workers per hardware thread (crowding()). Above 1 the CPU a spin would hold is
  /// one a worker with work is waiting for, so the spins are skipped (yields come first),
  /// and the parks are stretched by `crowd`.
  backoff_idle(std::uint32_t max_spins, std::uint32_t max_yields, std::uint64_t min_park_ns, std::uint64_t max_park_ns,
               unsigned crowd = 1)
      : spins_(crowd > 1 ? 0 : max_spins), yields_(max_yields), min_(stretched(min_park_ns, crowd)),
        max_(stretched(max_park_ns, crowd)) {}

  /// `round` counts idle attempts since the worker last found work.
  idle_decision next(unsigned round) const {
    if (round < spins_) return {idle_decision::spin};
    if (round < spins_ + yields_) return {idle_decision::yield};
    unsigned doublings = std::min(round - spins_ - yields_, 40u);
    // min_ << doublings, capped at max_ (compared before shifting: the shift could overflow)
    return {idle_decision::park_for, min_ > (max_ >> doublings) ? max_ : min_ << doublings};
  }

 private:
  std::uint32_t spins_, yields_;
  std::uint64_t min_, max_;
};
}  // namespace twinsched
