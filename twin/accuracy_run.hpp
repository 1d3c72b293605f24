// Running the accuracy matrix: every real run (in rounds or case by case, the host probed around
// each, spoiled runs re-run), then every simulation; each case's real figure and failure.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "twin/accuracy_case.hpp"

namespace twinsched::twin {

/// How the matrix runs a step and whom it tells. The defaults run on this machine's threads and
/// in a simulation child process, probe with host_probe() and report nothing; a test replaces
/// them to play a matrix without running one.
struct matrix_steps {
  /// More steps planned: the whole plan first (warm-ups, runs, simulations), then each re-run round's.
  std::function<void(std::size_t more)> planned = [](std::size_t) {};
  /// Step `step` (0-based) starts: case `name` ("forward stealing 2w"), its `phase` ("real run 1/3").
  std::function<void(std::size_t step, const std::string& name, const std::string& phase)> started =
      [](std::size_t, const std::string&, const std::string&) {};
  std::function<run_result(const scenario&)> real_run;              ///< default: run_on_threads
  std::function<sim_result(const scenario&, const sim_options&)> simulate;  ///< default: simulate (sim/run_sim.hpp)
  std::function<double()> probe;  ///< a line transfer here, ns (0: none); default: host_probe()
  /// A scenario's cost profile (accuracy_setup::profile_costs); default: one real run on one worker.
  std::function<cost_profile(const scenario&)> profile;
  /// A line for stderr: the warning when the first probe finds the host elsewhere.
  std::function<void(const std::string&)> warn = [](const std::string&) {};
};

/// Why a run failed its verdict, in one phrase: its first error, else the first rule it broke.
std::string verdict_failure(const run_result& r);

/// Runs the matrix as `setup` says (runs, warmup, order, reruns, machine, host_cores,
/// model_line_ns) and fills in every case's real runs, median run, simulation and failure, and
/// the setup's probes and run counts.
/// --order rounds: round r runs every case once, so a case's runs lie minutes apart and a slow
/// spell of a shared host lands on one run of many cases, not on every run of one; --order
/// cases: a case's runs one after another (warm-ups first).
/// The host probes: one before the first real run and one after each, so every run lies
/// between two. A measured run counts as made in the model's state when both match the model
/// (probe_matches). Then up to `reruns` rounds re-run, once each, the cases short of `runs`
/// such runs, until none is short or a round gains none (the host stays elsewhere: more runs
/// would not help); none when no run was in the model's state. A failed run ends its case.
void run_matrix(std::vector<accuracy_case>& cases, accuracy_setup& setup, matrix_steps steps);

}  // namespace twinsched::twin
