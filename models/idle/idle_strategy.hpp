// The idle strategy a worker runs, chosen by name at run time (the idle path is not hot).
#pragma once
#include <cstdio>
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
  /// `crowd`: workers per hardware thread (crowding()); backoff and sleep adapt to it.
  explicit idle_strategy(const idle_config& c, unsigned crowd = 1) : s_(make(c, crowd)) {}
  idle_decision next(unsigned round) const {
    return std::visit([round](const auto& s) { return s.next(round); }, s_);
  }

 private:
  using any = std::variant<busy_spin_idle, noop_idle, yield_idle, sleep_idle, backoff_idle, park_idle>;
  static any make(const idle_config& c, unsigned crowd) {
    const auto& n = c.strategy;
    if (n == busy_spin_idle::name) return busy_spin_idle{};
    if (n == noop_idle::name) return noop_idle{};
    if (n == yield_idle::name) return yield_idle{};
    if (n == sleep_idle::name) return sleep_idle{c.sleep_ns, crowd};
    if (n == backoff_idle::name) return backoff_idle{c.max_spins, c.max_yields, c.min_park_ns, c.max_park_ns, crowd};
    if (n == park_idle::name) return park_idle{};
    throw config_error("unknown idle strategy '" + n + "'");
  }
  any s_;
};

/// What idle strategy `c` does while `crowd` > 1 workers share each hardware thread: the
/// end of the one-line warning the command line prints then.
inline std::string crowded_behavior(const idle_config& c, unsigned crowd) {
  auto ms = [](std::uint64_t ns) {
    char b[32];
    if (ns < 1'000'000) std::snprintf(b, sizeof b, "%.3g us", double(ns) / 1e3);
    else std::snprintf(b, sizeof b, "%.3g ms", double(ns) / 1e6);
    return std::string(b);
  };
  const std::string& n = c.strategy;
  const std::string x = " (x" + std::to_string(crowd) + ", the workers per hardware thread)";
  if (n == backoff_idle::name)
    return "idle strategy backoff skips its spins and parks for " + ms(stretched(c.min_park_ns, crowd)) + " to " +
           ms(stretched(c.max_park_ns, crowd)) + x;
  if (n == sleep_idle::name) return "idle strategy sleep parks for " + ms(stretched(c.sleep_ns, crowd)) + x;
  if (n == yield_idle::name) return "idle strategy yield gives the CPU away at every attempt";
  if (n == park_idle::name) return "idle strategy park blocks idle workers until work comes";
  return "idle strategy " + n + " keeps idle workers on the CPUs the busy ones wait for (--idle backoff or park gives them away)";
}

}  // namespace twinsched
