// Idle strategy `busy-spin`: pause-spin forever; lowest latency, burns its core.
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct busy_spin_idle {
  static constexpr const char* name = "busy-spin";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::spin}; }
};
}  // namespace twinsched
