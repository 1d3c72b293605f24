// Running a scenario on real cores: the std::thread platform driving the scheduler.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "models/trace_event.hpp"

namespace twinsched {

struct cost_profile;
class turn_cost_hook;

namespace traces {
class recorder;
struct lane_memory;
}

/// A trace to record while running: where, and how much detail.
struct trace_request {
  std::string path;  ///< empty: no trace
  trace_level level = trace_level::full;
  bool discard = false;  ///< benchmark aid (traces/recorder.hpp): events recorded, never written
  traces::lane_memory* memory = nullptr;  ///< if set: gets what the lanes held (recorder::memory())
};

/// How far a run on threads has got, read from another thread while it runs (a progress
/// line: cli/run_command.cpp). run_on_threads attaches it to its scheduler for the run's
/// length. Reading sums each worker's own `processed` counter (the one the quiescence check
/// reads; models/worker.hpp): the workers pay nothing for it, there is no shared counter,
/// and a read costs one load per worker plus a lock only the readers and the attach take.
class run_watch {
 public:
  /// Messages processed so far: 0 before the run, the last count read once it has ended.
  std::uint64_t messages() const;
  /// The workload's expected message count (0 until the run starts, or if it cannot say).
  std::uint64_t expected() const;

  /// For run_on_threads: reads `processed` while attached.
  void attach(std::function<std::uint64_t()> processed, std::uint64_t expected);
  void detach();

 private:
  mutable std::mutex m_;
  std::function<std::uint64_t()> read_;
  mutable std::uint64_t last_ = 0;
  std::uint64_t expected_ = 0;
};

/// Validates `s` (throws config_error), builds its workload, runs it to quiescence on
/// `s.sched.workers` std::threads and returns the measurements and the checksum verdict.
/// `watch` (optional) shows how far it has got meanwhile.
run_result run_on_threads(const scenario& s, run_watch* watch = nullptr);

/// How many workers can run at once here: thread_platform::hardware_workers().
unsigned hardware_threads();

/// Runs an already built workload (user code, tests) with configuration `c`.
run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed = 1);

/// run_on_threads(s), recording a trace of the run (traces/format.hpp) to `t.path` unless
/// it is empty or the level is off. Throws std::runtime_error if the file cannot be written.
/// With `profile`: each turn's own code is timed (runtime/cost_recorder.hpp) and `*profile`
/// gets the run's cost profile (`twinsched profile`, `sim --costs`).
run_result run_on_threads(const scenario& s, const trace_request& t, run_watch* watch = nullptr,
                          cost_profile* profile = nullptr);

/// Runs a built workload with its events going to `rec` at `level` (rec null: untraced), and
/// each turn through `costs` (null: none; models/platform.hpp contract 17). The caller
/// finishes the recorder with the result.
run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed, traces::recorder* rec,
                          trace_level level, run_watch* watch = nullptr, turn_cost_hook* costs = nullptr);

}  // namespace twinsched
