// Idle strategy `sleep`: park for a fixed time (a waker may end it early).
#pragma once
#include <cstdint>

#include "idle_decision.hpp"

namespace twinsched {
class sleep_idle {
 public:
  static constexpr const char* name = "sleep";
  explicit sleep_idle(std::uint64_t ns) : ns_(ns) {}
  idle_decision next(unsigned /*round*/) const { return {idle_decision::park_for, ns_}; }

 private:
  std::uint64_t ns_;
};
}  // namespace twinsched
