// Running a scenario on real cores: the std::thread platform driving the scheduler.
#pragma once
#include <string>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "models/trace_event.hpp"

namespace twinsched {

namespace traces {
class recorder;
}

/// A trace to record while running: where, and how much detail.
struct trace_request {
  std::string path;  ///< empty: no trace
  trace_level level = trace_level::full;
  bool discard = false;  ///< benchmark aid (traces/recorder.hpp): events recorded, never written
};

/// Validates `s` (throws config_error), builds its workload, runs it to quiescence on
/// `s.sched.workers` std::threads and returns the measurements and the checksum verdict.
run_result run_on_threads(const scenario& s);

/// Runs an already built workload (user code, tests) with configuration `c`.
run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed = 1);

/// run_on_threads(s), recording a trace of the run (traces/format.hpp) to `t.path` unless
/// it is empty or the level is off. Throws std::runtime_error if the file cannot be written.
run_result run_on_threads(const scenario& s, const trace_request& t);

/// Runs a built workload with its events going to `rec` at `level` (rec null: untraced).
/// The caller finishes the recorder with the result.
run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed, traces::recorder* rec,
                          trace_level level);

}  // namespace twinsched
