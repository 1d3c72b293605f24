// Idle strategy `park`: block until another worker makes work available (or the run ends).
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct park_idle {
  static constexpr const char* name = "park";
  static constexpr const char* description = "block until another worker wakes it; saves the core, pays a wake-up";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::park}; }
};
}  // namespace twinsched
