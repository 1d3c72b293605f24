// Validation: one scenario run on real cores and simulated on as many modeled cores, both traced, the traces diffed.
//
// `twinsched validate` (cli/validate_command.cpp) is this with progress lines. The real side
// runs on at most this machine's cores (cap_workers_to_machine); the simulation models the same
// number of cores of the scenario's machine or another. Both traces are kept.
#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"
#include "traces/diff.hpp"

namespace twinsched {

struct validate_request {
  scenario s;                 ///< its workers at most this machine's cores (cap_workers_to_machine)
  std::string scenario_file;  ///< where s came from (empty: built in); no trace may overwrite it
  std::string machine;        ///< the simulated side's machine model; empty: the scenario's
  std::string out_dir = ".";  ///< gets <name>.real.tst and <name>.sim.tst
  trace_level level = trace_level::full;
  traces::diff_options diff;
};

/// How each phase runs; an empty member does it plainly (run_on_threads, simulate,
/// traces::diff_traces). The CLI wraps them in progress lines; tests count the calls.
struct validate_hooks {
  std::function<run_result(const scenario&, const trace_request&)> run_real;
  std::function<sim_result(const scenario&, const sim_options&)> simulate;
  std::function<traces::diff_report(const traces::trace_reader&, const traces::trace_reader&, const traces::diff_options&)>
      diff;
};

struct validate_outcome {
  std::string real_path, sim_path;
  std::uint32_t workers = 0;
  run_result real;
  sim_result sim;
  traces::diff_report diff;
  /// 0: both runs correct, logically equivalent and within the tolerance; 1 otherwise.
  int exit_code() const { return real.ok() && sim.ok() ? diff.exit_code() : 1; }
};

/// Lowers s's workers to this machine's cores; returns the count s asked for.
std::uint32_t cap_workers_to_machine(scenario& s);

/// Checks both trace paths (files::path_error, before anything runs), runs the real side,
/// then the simulation (after the real run's threads have ended: simulate forks), and diffs.
validate_outcome validate_scenario(const validate_request& r, const validate_hooks& hooks = {});

/// Both runs' one-line summaries, then the diff (traces/diff_text.hpp).
void print_validation(std::ostream& out, const validate_outcome& v);

}  // namespace twinsched
