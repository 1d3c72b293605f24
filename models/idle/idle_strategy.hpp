// The idle strategy a worker runs, chosen by name at run time (the idle path is not hot).
#pragma once
#include <cstdio>
#include <optional>
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

/// The idle-strategy registry: the one list of strategies. Each declares beside its code its
/// name, description, knobs (models/knob.hpp, over idle_config), an optional
/// `static S make(const idle_config&, unsigned crowd)` (else it is default-constructed) and an
/// optional `static void check(const idle_config&)`; names, validation, scenario files,
/// flags and `twinsched list` read them through idle_catalog() (models/registry.hpp).
template <class... Strategies>
struct idle_list {};
using idle_strategies = idle_list<busy_spin_idle, noop_idle, yield_idle, backoff_idle, sleep_idle, park_idle>;

class idle_strategy {
 public:
  /// `crowd`: workers per hardware thread (crowding()); backoff and sleep adapt to it.
  explicit idle_strategy(const idle_config& c, unsigned crowd = 1) : s_(make(c, crowd, idle_strategies{})) {}
  idle_decision next(unsigned round) const {
    return std::visit([round](const auto& s) { return s.next(round); }, s_);
  }

 private:
  template <class L>
  struct variant_of;
  template <class... S>
  struct variant_of<idle_list<S...>> {
    using type = std::variant<S...>;
  };
  using any = variant_of<idle_strategies>::type;

  template <class S>
  static S make_one(const idle_config& c, unsigned crowd) {
    if constexpr (requires { S::make(c, crowd); }) return S::make(c, crowd);
    else return S{};
  }
  template <class... S>
  static any make(const idle_config& c, unsigned crowd, idle_list<S...>) {
    std::optional<any> s;
    ((c.strategy == S::name && (s.emplace(make_one<S>(c, crowd)), true)) || ...);
    if (!s) throw config_error("unknown idle strategy '" + c.strategy + "'");
    return *std::move(s);
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
