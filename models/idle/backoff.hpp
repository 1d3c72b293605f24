// Idle strategy `backoff`: spin, then yield, then park for a time that doubles from min to max.
#pragma once
#include <algorithm>
#include <cstdint>

#include "idle_decision.hpp"

namespace twinsched {
class backoff_idle {
 public:
  static constexpr const char* name = "backoff";
  backoff_idle(std::uint32_t max_spins, std::uint32_t max_yields, std::uint64_t min_park_ns, std::uint64_t max_park_ns)
      : spins_(max_spins), yields_(max_yields), min_(min_park_ns), max_(max_park_ns) {}

  /// `round` counts idle attempts since the worker last found work.
  idle_decision next(unsigned round) const {
    if (round < spins_) return {idle_decision::spin};
    if (round < spins_ + yields_) return {idle_decision::yield};
    unsigned doublings = std::min(round - spins_ - yields_, 40u);
    std::uint64_t ns = min_ << std::min(doublings, 62u);
    return {idle_decision::park_for, std::min(ns, max_)};
  }

 private:
  std::uint32_t spins_, yields_;
  std::uint64_t min_, max_;
};
}  // namespace twinsched
