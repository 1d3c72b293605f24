// Calibration: measures this machine's cost of every term a machine model has and writes them as a machine model file.
//
// `twinsched calibrate` (cli/calibrate_command.cpp) runs it. Every term is the median of
// several repetitions; what each one measures is said in twin/calibrate.cpp (its steps beside it), and
// in the file it writes. It runs microbenchmarks of the platform's own operations and of the
// runtime's data structures (mailbox, envelope pool, deque: the same templates the scheduler
// uses, instantiated over the real platform and, to learn what the model already charges for
// their atomics, over the simulated one), and single-worker real runs of a calibration
// workload of its own (a ring, never a stock scenario), simulated with the terms measured so
// far: what the simulation misses per message and per turn becomes `message` and `turn`.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "sim/machine_model.hpp"

namespace twinsched {

struct calibrate_options {
  bool quick = false;  ///< fewer repetitions and shorter loops (tests): seconds, noisier
  std::string name = "this-machine";
  /// The shared cache level's size in KiB, instead of what the random walk finds (0: none): for
  /// a host whose other tenants hide the level from the walk. Negative: the walk decides.
  std::int64_t shared_cache_kib = -1;
  /// One line per step as it starts and what it found (the CLI prints them on stderr).
  std::function<void(const std::string&)> progress;
};

struct calibration {
  machine_model model;             ///< every cost in ns
  std::vector<std::string> notes;  ///< "term: how it was measured, result": the file's header
  double burn_2000_ratio = 0;      ///< real time of burn_ns(2000) / 2000 ns
  double seconds = 0;              ///< wall time the calibration took
};

/// Measures this machine (a few tens of seconds; `quick`: a few seconds). Uses CPU 0 and the
/// first CPU of another core (CPU 1 unless it is CPU 0's SMT sibling) for the two-thread
/// measurements (one CPU: both on it, and the transfer terms mean little).
calibration calibrate_machine(const calibrate_options& o);

/// The line transfer as calibrate measures it (the same dependent-load chase between the same
/// two CPUs, fewer batches: tens of ms), ns; 0 on a one-CPU machine. `accuracy` checks with it
/// that the machine is still in the state its model was calibrated in: a VM's host may move
/// its CPUs apart for minutes to hours, and back.
double probe_line_transfer_ns();

/// Whether two line transfers (probes, or a probe and a model's) describe the same state of
/// the host: within 2x of each other. Noise within one state stays under that; the host's near
/// and apart states differ by far more (docs/ACCURACY.md, "the host's two states").
/// `accuracy`'s host check and the trace bench use it.
inline bool same_line_state(double a_ns, double b_ns) { return a_ns <= 2 * b_ns && b_ns <= 2 * a_ns; }

/// The machine model file for `c`: header comment (notes), name, topology, every cost in ns.
/// parse_machine() reads it back to the same costs (to the printed precision).
std::string machine_toml(const calibration& c);

}  // namespace twinsched
