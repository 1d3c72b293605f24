// Idle strategy `noop`: retry immediately, not even a pause instruction.
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct noop_idle {
  static constexpr const char* name = "noop";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::retry}; }
};
}  // namespace twinsched
