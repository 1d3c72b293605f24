// Idle strategy `busy-spin`: pause-spin forever; lowest latency, burns its core.
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct busy_spin_idle {
  static constexpr const char* name = "busy-spin";
  static constexpr const char* description = "spin without pause; lowest wake-up latency, burns a core";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::spin}; }
};
}  // namespace twinsched
