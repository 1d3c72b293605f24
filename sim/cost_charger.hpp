// Charging a behavior's own code in simulation: each turn's cost drawn from a profile taken on real cores.
#pragma once
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "models/cost_profile.hpp"
#include "models/rng.hpp"

namespace twinsched {

/// What the charger did over a run (sim_result::costs).
struct cost_report {
  std::string source;                ///< the profile's file, or "" when none was given
  std::uint64_t charged_turns = 0;   ///< turns of a kind the profile has
  double charged_ns = 0;             ///< their drawn costs, summed
  std::uint64_t unprofiled_turns = 0;  ///< turns of a kind it lacks: charged what they declared
  std::vector<std::string> unprofiled_kinds;  ///< "behavior tag N", sorted
};

/// The simulator's turn_cost_hook (models/platform.hpp contract 17). A turn of a kind the
/// profile has costs a draw from that kind's measured distribution (turn_kind_cost::at,
/// scaled so the draws' mean is the measured mean), instead of what the behavior declared
/// with did_work_ns (the profile measured that work); burn_ns is charged as always, since
/// the profile left it out. A kind the profile lacks keeps its declared cost and is counted.
///   Determinism: each worker draws from its own generator, seeded by the scenario's seed and
///   the worker's index, in the order of its turns, which the simulation fixes; kinds are
///   matched by name and cached in insertion order, never by iterating over pointers.
class cost_charger final : public turn_cost_hook {
 public:
  cost_charger(const cost_profile& p, unsigned worker_slots, std::uint64_t seed);
  void begin(unsigned) override {}
  std::uint64_t end(unsigned w, const std::type_info& behavior, std::uint32_t tag, std::uint64_t burned_ns,
                    std::uint64_t declared_ns) override;
  cost_report report(std::string source) const;

 private:
  struct kind {
    const std::type_info* type;
    std::uint32_t tag;
    const turn_kind_cost* cost;  // null: the profile lacks it
    double scale;
    std::uint64_t turns = 0;
  };
  struct slot {
    std::vector<kind> kinds;
    rng draws{0};
    double charged_ns = 0;
  };
  kind& find(slot& s, const std::type_info& behavior, std::uint32_t tag);

  const cost_profile& p_;
  std::vector<slot> slots_;
};

}  // namespace twinsched
