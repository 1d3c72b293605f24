// Machine models: the modeled hardware's topology and costs, loaded from models/machines/*.toml.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "models/config.hpp"
#include "models/workload/workload.hpp"

namespace twinsched {

/// A machine file that cannot be used. what() is one line, "FILE:LINE:COL: message" (or
/// "FILE: message" without a position). Derives from config_error so the CLI exits with 2.
struct machine_error : config_error {
  using config_error::config_error;
};

/// What one modeled core, cache line, lock or park costs. All costs are in nanoseconds here;
/// files may give them in cycles (converted with clock_ghz). Documented in sim/MACHINES.md.
struct machine_model {
  std::string name = "default";
  std::string description;
  std::string source = "<embedded models/machines/default.toml>";

  // [topology]
  std::uint32_t sockets = 1;
  std::uint32_t cores_per_socket = 8;
  double clock_ghz = 3.5;
  /// Each core's private cache (L2), KiB: an actor whose state has not been touched on this
  /// core within that many bytes of other actors' turns is cold (costs `cold_actor`). 0: never.
  std::uint32_t private_cache_kib = 0;
  /// The last-level cache all cores share, KiB, as a random walk finds it (calibrate): an actor
  /// out of the private caches but touched within that many bytes of other actors costs
  /// `llc_actor` instead of `cold_actor`. 0: no such level (every miss goes to memory).
  std::uint32_t shared_cache_kib = 0;

  // [costs], in ns
  double atomic_load = 0, atomic_store = 0, atomic_rmw = 0, fence = 0;
  double line_same_socket = 0, line_cross_socket = 0;
  double migration_per_kib = 0, lock_handoff = 0, queue_op = 0, locked_queue_op = 0;
  /// Unlocking a lock another thread contended: glibc's futex wake syscall, nobody asleep.
  double contended_unlock = 0;
  double park = 0, unpark = 0, wake_latency = 0, spin = 0, yield = 0;
  /// Of a park that blocked, the CPU its thread spends (going to sleep in the kernel, and
  /// back out once woken): part of the time it is blocked, counted as CPU time, not as
  /// parked. It moves no simulated time. 0 (files written before it): a blocked worker burns
  /// nothing.
  double block_cpu = 0;
  /// The wake-up latency's spread, ns at `wake_quantile_probabilities` (calibrate measures it):
  /// each wake-up from a park in simulation is drawn from it, where `wake_latency` is one value
  /// for all. Empty: every wake-up takes `wake_latency`.
  std::vector<double> wake_latency_quantiles;
  /// A timed park's overshoot, from its deadline to running again, at the same probabilities:
  /// a park that times out in simulation draws from it instead. Empty: as any wake-up.
  std::vector<double> timer_late_quantiles;
  // the runtime's own non-atomic work (models/platform.hpp contract 15) and burn_ns's fixed cost
  double message = 0, turn = 0, envelope = 0, mailbox_push = 0, mailbox_pop = 0, burn_call = 0;
  /// A turn of an actor whose state is not in the core's private cache (see private_cache_kib).
  double cold_actor = 0;
  /// The same, when the actor is still in the shared cache (see shared_cache_kib).
  double llc_actor = 0;
  /// A load from memory that nothing overlaps: a turn's read of a queued message whose envelope
  /// left every cache (the mailbox is a linked list, so each envelope's address comes from the
  /// load before it). 0: such a read costs cold_actor.
  double memory_load = 0;
  /// A queued message's envelope read from memory next to the one this core read before it
  /// (slot +-1), with no other miss between: an actor draining a burst sent in order, which the
  /// hardware prefetcher streams in (sim_platform.cpp, touch_message). 0: memory_load.
  double stream_load = 0;

  // [kernels]: ns per unit of a workload's compute kernel (workload_info::kernels), measured by
  // calibrate; the simulator uses it for the kernel's parameter when a scenario leaves it unset.
  std::map<std::string, double> kernels;

  // [simulation]
  double quantum_ns = 1000;

  std::uint32_t cores() const { return sockets * cores_per_socket; }
};

/// The probabilities at which machine_model::wake_latency_quantiles gives the latency.
inline constexpr std::array<double, 8> wake_quantile_probabilities{0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999};
/// The value at `u` in [0, 1) of the distribution whose quantiles at wake_quantile_probabilities
/// are `q` (non-decreasing): linear between them, the first and last below and above them.
double quantile_draw(const std::vector<double>& q, double u);

/// The cost keys of a machine file's [costs] table, without the _cycles/_ns suffix, in file order.
const std::vector<std::string>& machine_cost_keys();

/// Parses machine text; `source_name` names it in errors. Unset costs keep the embedded default's.
machine_model parse_machine(std::string_view text, const std::string& source_name);
/// `name_or_path`: a path to a machine file when it contains a '/' or ends in .toml, else a
/// stock machine's name, the file <name>.toml in stock_machine_folder() (`default` is also
/// embedded, so it loads without that folder). A folder, a missing file or an unknown name is
/// a machine_error naming what was looked for.
machine_model load_machine(const std::string& name_or_path);
/// The folder of the stock machine models (scenarios/stock_folder.hpp): <prefix>/share/twinsched/machines
/// beside an installed twinsched, the source tree's models/machines for one run from its build folder.
std::string stock_machine_folder();
/// Every loadable machine name, sorted, "default" included.
std::vector<std::string> machine_names();
/// The stock machines, one a line: name, shape ("2 x 16 cores, 2.90 GHz") and description,
/// or why one does not load (`twinsched list machines`).
void print_machines(std::ostream& out);
/// The parameters a simulation on `m` builds workload `w` with: `w`'s defaults overlaid with
/// `given`, and each of `w`'s kernels' parameter that `given` leaves unset taken from `m`'s
/// [kernels] table (calibrated on the machine) when it has that kernel.
workload_params with_machine_kernels(const workload_info& w, const std::map<std::string, param_value>& given,
                                     const machine_model& m);

/// The embedded models/machines/default.toml.
std::string_view default_machine_text();

}  // namespace twinsched
