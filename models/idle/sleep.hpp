// Idle strategy `sleep`: park for a fixed time (a waker may end it early).
#pragma once
#include <cstdint>

#include "idle_decision.hpp"

namespace twinsched {
class sleep_idle {
 public:
  static constexpr const char* name = "sleep";
  /// `crowd`: workers per hardware thread (crowding()); the park is stretched by it.
  explicit sleep_idle(std::uint64_t ns, unsigned crowd = 1) : ns_(stretched(ns, crowd)) {}
  idle_decision next(unsigned /*round*/) const { return {idle_decision::park_for, ns_}; }

 private:
  std::uint64_t ns_;
};
}  // namespace twinsched
