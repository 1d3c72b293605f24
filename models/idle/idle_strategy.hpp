// The idle strategy a worker runs, chosen by name at run time (the idle path is not hot).
#pragma once
#include <stdexcept>
#include <string>
#include <variant>

#include "../config.hpp"
#include "backoff.hpp"
#include "busy_spin.hpp"
#include "noop.hpp"
#include "park.hpp"
#include "sleep.hpp"
#include "yield.hpp"

namespace twinsched {

class idle_strategy {
 public:
  explicit idle_strategy(const idle_config& c) : s_(make(c)) {}
  idle_decision next(unsigned round) const {
    return std::visit([round](const auto& s) { return s.next(round); }, s_);
  }

 private:
  using any = std::variant<busy_spin_idle, noop_idle, yield_idle, sleep_idle, backoff_idle, park_idle>;
  static any make(const idle_config& c) {
    const auto& n = c.strategy;
    if (n == busy_spin_idle::name) return busy_spin_idle{};
    if (n == noop_idle::name) return noop_idle{};
    if (n == yield_idle::name) return yield_idle{};
    if (n == sleep_idle::name) return sleep_idle{c.sleep_ns};
    if (n == backoff_idle::name) return backoff_idle{c.max_spins, c.max_yields, c.min_park_ns, c.max_park_ns};
    if (n == park_idle::name) return park_idle{};
    throw config_error("unknown idle strategy '" + n + "'");
  }
  any s_;
};

}  // namespace twinsched
