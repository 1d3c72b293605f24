// Idle strategy `sleep`: park for a fixed time (a waker may end it early).
#pragma once
#include <cstdint>

#include "../config.hpp"
#include "../knob.hpp"
#include "idle_decision.hpp"

namespace twinsched {
class sleep_idle {
 public:
  static constexpr const char* name = "sleep";
  static constexpr const char* description = "park for a fixed sleep_us, then look again";
  static constexpr knob<idle_config> knobs[] = {
      {.key = "sleep_us", .help = "how long an idle worker parks", .u64 = &idle_config::sleep_ns, .min = 1, .micros = true},
  };
  static sleep_idle make(const idle_config& c, unsigned crowd) { return sleep_idle{c.sleep_ns, crowd}; }
  /// `crowd`: workers per hardware thread (crowding()); the park is stretched by it.
  explicit sleep_idle(std::uint64_t ns, unsigned crowd = 1) : ns_(stretched(ns, crowd)) {}
  idle_decision next(unsigned /*round*/) const { return {idle_decision::park_for, ns_}; }

 private:
  std::uint64_t ns_;
};
}  // namespace twinsched
