// Idle strategy `backoff`: spin, then yield, then park for a time that doubles from min to max.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../config.hpp"
#include "../knob.hpp"
#include "idle_decision.hpp"

namespace twinsched {
class backoff_idle {
 public:
  static constexpr const char* name = "backoff";
  static constexpr const char* description = "max_spins spins, then max_yields yields, then parks doubling from min_park_us to max_park_us";
  static constexpr knob<idle_config> knobs[] = {
      {.key = "max_spins", .help = "pause-spins before yielding", .u32 = &idle_config::max_spins},
      {.key = "max_yields", .help = "yields before parking", .u32 = &idle_config::max_yields},
      {.key = "min_park_us", .help = "the first park", .u64 = &idle_config::min_park_ns, .min = 1, .micros = true},
      {.key = "max_park_us", .help = "parks double up to this", .u64 = &idle_config::max_park_ns, .min = 1, .micros = true},
  };
  static backoff_idle make(const idle_config& c, unsigned crowd) {
    return backoff_idle{c.max_spins, c.max_yields, c.min_park_ns, c.max_park_ns, crowd};
  }
  static void check(const idle_config& c) {
    if (c.max_park_ns < c.min_park_ns)
      throw knob_error("scheduler.idle.max_park_us", "scheduler.idle.min_park_us",
                       "scheduler.idle.max_park_us (" + std::to_string(c.max_park_ns / 1000) +
                           ") must be at least min_park_us (" + std::to_string(c.min_park_ns / 1000) + ")");
  }
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
