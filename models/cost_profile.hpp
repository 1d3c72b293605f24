// A cost profile: how long each kind of turn's own code took on real cores, and the hook both backends use to take or charge it.
#pragma once
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "log_histogram.hpp"

namespace twinsched {

/// One kind of turn: a behavior type handling a message tag.
struct turn_kind_cost {
  std::string behavior;  ///< the behavior's C++ type, demangled ("(anonymous namespace)::ring_member")
  std::uint32_t tag = 0;
  std::uint64_t turns = 0;  ///< messages measured
  double mean_ns = 0;
  /// The quantiles at 0, 5, 10, ..., 100 percent of the measured times, nanoseconds.
  std::vector<double> quantiles_ns;
  static constexpr unsigned quantile_count = 21;

  /// The cost a uniform draw `u` in [0, 1) stands for: linear between the quantiles, so a
  /// draw follows the measured distribution to within its 5% steps.
  double at(double u) const {
    const double x = u * double(quantile_count - 1);
    const unsigned i = unsigned(x);
    if (i + 1 >= quantiles_ns.size()) return quantiles_ns.back();
    return quantiles_ns[i] + (quantiles_ns[i + 1] - quantiles_ns[i]) * (x - double(i));
  }
};

/// What a profile says about the run it was taken from, and its kinds of turns, sorted by
/// behavior and tag.
struct cost_profile {
  std::string scenario;            ///< the scenario's name
  std::string workload;            ///< its workload kind
  std::uint32_t workers = 0;       ///< of the real run it was measured on
  std::uint64_t preempted_turns = 0;  ///< turns left out: their thread lost its core meanwhile
  std::vector<turn_kind_cost> kinds;

  const turn_kind_cost* find(const std::string& behavior, std::uint32_t tag) const {
    for (const turn_kind_cost& k : kinds)
      if (k.behavior == behavior && k.tag == tag) return &k;
    return nullptr;
  }
};

/// A behavior type's name as a profile holds it (the demangled type name).
std::string behavior_type_name(const std::type_info& t);

/// The kinds of `hist`, one histogram per kind, as a profile's entries.
turn_kind_cost kind_cost(std::string behavior, std::uint32_t tag, const log_histogram& hist);

/// The hook a worker calls around each behavior's receive when its platform has one
/// (platform.hpp contract 17): on real cores a recorder that measures the turn's own code,
/// in simulation a charger that draws its cost from a profile. Inside a turn, the runtime's
/// own work on the behavior's behalf (a send, a spawn, a shared word) lies between pause and
/// resume: it is not the behavior's code, and the simulator models it apart.
///   Protocol: worker w's thread alone calls begin(w), then pause(w)/resume(w) pairs, then
///   end(w, ...), with no other turn of that worker in between; per-worker state is indexed
///   by w and never touched by another worker, so a hook needs no synchronization until the
///   run has ended.
class turn_cost_hook {
 public:
  virtual ~turn_cost_hook() = default;
  virtual void begin(unsigned w) = 0;
  virtual void pause(unsigned) {}
  virtual void resume(unsigned) {}
  /// After the receive: `burned_ns` it burned through burn_ns, `declared_ns` it declared through
  /// did_work_ns. Returns what the turn's own code costs on the modeled machine (0 on real
  /// cores, where it already ran).
  virtual std::uint64_t end(unsigned w, const std::type_info& behavior, std::uint32_t tag, std::uint64_t burned_ns,
                            std::uint64_t declared_ns) = 0;
  /// True: did_work_ns charges nothing itself, the hook's draw stands for the behavior's own
  /// work (a profile measured it, declared work included).
  bool replaces_declared = false;
};

}  // namespace twinsched
