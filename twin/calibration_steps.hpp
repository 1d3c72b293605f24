// The steps of calibrate_machine (twin/calibrate.cpp), each measuring a group of a machine model's terms.
#pragma once
#include <cstdint>
#include <string>

#include "twin/calibrate.hpp"

namespace twinsched::calib {

/// What every step shares: the options, the calibration being filled in, the batch counts, and
/// the progress lines (`say`: what a step starts; `note`: what it found, also kept in the file).
struct calibration_run {
  const calibrate_options& opt;
  calibration& c;
  int reps;            ///< batches per cost (cost_of's lower quartile over them)
  std::uint64_t scale; ///< batch lengths divide by this (--quick: 2)

  machine_model& model() { return c.model; }
  void say(const std::string& s) const {
    if (opt.progress) opt.progress(s);
  }
  void note(const std::string& s) {
    c.notes.push_back(s);
    say("  " + s);
  }
};

// One thread's and two pinned threads' microbenchmarks (twin/thread_microbench.cpp).
void measure_core(calibration_run& run);
void measure_between_cores(calibration_run& run);
void measure_parking(calibration_run& run);
void measure_burn(calibration_run& run);
void measure_kernels(calibration_run& run);
// The runtime's data structures, real against the simulator's charge (twin/structure_costs.cpp).
void measure_structures(calibration_run& run);
// The calibration ring, real against simulated: message, turn and the cache terms (twin/ring_fit.cpp).
void measure_worker_loop(calibration_run& run);

}  // namespace twinsched::calib
