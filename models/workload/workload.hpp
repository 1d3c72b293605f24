// A workload: the actors a scenario starts with, their messages, and the checksum that proves the run.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "../behavior.hpp"

namespace twinsched {

/// A workload parameter value as written in a scenario file.
using param_value = std::variant<std::int64_t, double, bool, std::string>;

/// One parameter a workload accepts: its name, type (the default's alternative), bounds
/// for numbers, and a one-line explanation shown by `twinsched list workloads`.
struct param_spec {
  std::string name;
  param_value default_value;
  std::string doc;
  double min = 1;  ///< numbers below this are rejected (counts must be positive)
  double max = std::numeric_limits<double>::infinity();  ///< numbers above this are rejected
  std::vector<std::string> choices = {};  ///< for a string: the values it may take (empty: any)
};

/// The parameters of one workload instance, defaults filled in.
class workload_params {
 public:
  std::map<std::string, param_value> values;
  std::int64_t integer(const std::string& k) const { return std::get<std::int64_t>(values.at(k)); }
  double real(const std::string& k) const {
    const auto& v = values.at(k);
    return std::holds_alternative<double>(v) ? std::get<double>(v) : double(std::get<std::int64_t>(v));
  }
  bool boolean(const std::string& k) const { return std::get<bool>(values.at(k)); }
};

/// What a run of a workload holds at its peak, for the memory estimate a run is checked
/// against before it starts (models/memory_estimate.hpp). Doubles: a product of parameters
/// may pass 2^64, and an estimate needs no more than three digits.
struct footprint {
  double actors = 0;           ///< actors spawned
  double queued_messages = 0;  ///< messages waiting in mailboxes at once, at most
  double bytes = 0;            ///< the workload's own data (its tables of actors, ...)
};

/// A built workload. `start` runs once before the workers do; `checksum` once after the
/// run is quiescent. The checksum is order-independent: it depends on which messages were
/// delivered where, never on the interleaving, so it must equal `reference_checksum`, the
/// same routing computed by a plain sequential loop.
class workload {
 public:
  virtual ~workload() = default;
  virtual void start(context& ctx) = 0;
  virtual std::uint64_t checksum() const = 0;
  virtual std::uint64_t reference_checksum() const = 0;
  /// Messages a correct run processes, counting the injected ones. Asked before the run too,
  /// where it sizes progress and traces. A workload whose message count depends on the
  /// interleaving (a search that stops at its first K answers, a waiting room that turns
  /// customers away) answers before the run with its estimate and after it with the count its
  /// own records say a correct run processes (e.g. what its actors sent), so a lost or
  /// duplicated message still fails the run; the result check (result_ok) proves the rest.
  virtual std::uint64_t expected_messages() const = 0;
  /// Extra result line (e.g. the computed value of pi); empty if none.
  virtual std::string detail() const { return {}; }
  /// False when the workload's own result check fails (e.g. pi off by more than 1e-6).
  virtual bool result_ok() const { return true; }
  /// True when the workload declares groups of equal actors (required by `donation`).
  virtual bool has_groups() const { return false; }
  /// Its peak size; a workload that cannot say counts as small.
  virtual footprint peak() const { return {}; }
  /// How many shared words its behaviors use (context::shared_load and shared_cas, which say
  /// what they cost); asked once, before `start`. Most need none.
  virtual std::uint64_t shared_words() const { return 0; }
  /// False when no behavior calls burn_ns: the real platform then skips timing its busy loop
  /// before the run (milliseconds of every launch). Asked once, before `start`.
  virtual bool burns() const { return true; }
  /// True if its behaviors (or `start`) set timers (context::send_after): the run then starts
  /// the timer service (models/timer_service.hpp). Asked once, before `start`.
  virtual bool uses_timers() const { return false; }
};

/// What most workloads' checksum() is: the sum of the values their behaviors accumulated
/// (each behavior's `acc()`), whatever order the messages ran in.
template <class Behavior>
std::uint64_t sum_of_acc(const std::vector<Behavior*>& behaviors) {
  std::uint64_t sum = 0;
  for (const Behavior* b : behaviors) sum += b->acc();
  return sum;
}

/// A compute kernel a workload's behaviors run on real cores and charge by a parameter in
/// simulation (pi's Leibniz terms: `term_ns` per term). `twinsched calibrate` times `run` on the
/// machine and writes the ns per unit to the machine model's [kernels] table under `name`;
/// the simulator then sets `param` to it wherever a scenario leaves `param` unset.
struct kernel_spec {
  std::string name;   ///< key in a machine model's [kernels] table (as NAME_ns)
  std::string param;  ///< the workload parameter that is the modeled ns per unit
  /// Runs `units` units of the kernel; returns something derived from the result (so the
  /// compiler keeps the work).
  std::function<std::uint64_t(std::uint64_t units)> run;
};

/// A workload type, registered by name for scenario files.
struct workload_info {
  std::string name;
  std::string description;
  std::vector<param_spec> params;
  std::function<std::unique_ptr<workload>(const workload_params&, std::uint64_t seed)> make;
  std::vector<kernel_spec> kernels = {};  ///< compute kernels calibrate measures (most have none)
};

/// The workloads twinsched ships (forward, pingpong, pi, ...), defined in builtins.cpp.
std::vector<workload_info> builtin_workloads();
/// Register a workload type; returns true so it can initialize a namespace-scope constant.
bool register_workload(workload_info info);
const workload_info* find_workload(const std::string& name);
/// All registered workloads, sorted by name.
std::vector<const workload_info*> all_workloads();
/// The workload's defaults overlaid with `given` (which the scenario loader validated).
workload_params with_defaults(const workload_info& w, const std::map<std::string, param_value>& given);

}  // namespace twinsched
