// Idle strategy `noop`: retry immediately, not even a pause instruction.
#pragma once
#include "idle_decision.hpp"

namespace twinsched {
struct noop_idle {
  static constexpr const char* name = "noop";
  static constexpr const char* description = "return at once and look again; like busy-spin, without the pause instruction";
  idle_decision next(unsigned /*round*/) const { return {idle_decision::retry}; }
};
}  // namespace twinsched
