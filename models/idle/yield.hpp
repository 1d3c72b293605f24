// Idle strategy `yield`: give the core to another thread between attempts.
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct yield_idle {
  static constexpr const char* name = "yield";
  static constexpr const char* description = "yield the CPU between looks (sched_yield); gives the core to other threads";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::yield}; }
};
}  // namespace twinsched
