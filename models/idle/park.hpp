// Idle strategy `park`: block until another worker makes work available (or the run ends).
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct park_idle {
  static constexpr const char* name = "park";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::park}; }
};
}  // namespace twinsched
