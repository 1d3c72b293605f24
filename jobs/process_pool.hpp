// A pool of child processes polled from one thread: jobs 0..N-1, K at a time, each reporting on a pipe (explore's schedules, sweep's simulations).
//
// The pool knows nothing of what a job computes: the caller starts a job (forks its child)
// and hands back the pipe to poll and how to read and collect it. Results land where the
// caller's `finish` puts them, so they come out in job order whatever order the children end in.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace twinsched::jobs {

/// A job the pool has started, as the pool drives it.
struct started_job {
  int fd = -1;  ///< the read end of the child's result pipe; the pool makes it non-blocking
  /// Reads what the pipe holds now; true once the child has closed it (all of it arrived).
  std::function<bool()> read_available;
  /// Collects the ended child and keeps its result; returns whether the job failed. Throwing
  /// (the child died, its result is unreadable) counts as a failure too (run_pool's on_error).
  std::function<bool()> finish;
};

struct pool_options {
  unsigned jobs = 1;  ///< children at once (0 counts as 1)
  /// Once job i fails, no job after i starts; every job before i still does, so the first
  /// failure in job order is the same whatever `jobs` is.
  bool stop_after_failure = false;
  double wall_limit_s = 0;                      ///< start no job after this many wall-clock seconds (0: no limit)
  std::chrono::milliseconds poll_wait{200};     ///< how long one poll waits for the children's pipes
  std::chrono::milliseconds tick_every{1000};  ///< how often `tick` is called while jobs run
  /// Called about every tick_every while jobs run: how many have ended, how many failed.
  std::function<void(std::size_t done, std::size_t failed)> tick;
};

/// What a pool run did.
struct pool_summary {
  std::size_t started = 0;  ///< jobs whose start was called
  std::size_t done = 0;     ///< jobs that ended (collected, or failed to start or collect)
  std::size_t failed = 0;   ///< of those, the failed ones
};

/// Runs jobs 0..count-1, at most `o.jobs` at once: `start(i)` starts job i and returns it;
/// once its pipe is closed, its `finish` collects it. A `start` or `finish` that throws makes
/// the job a failure, passed to `on_error(i, what)`. Returns when every started job has ended.
/// Everything runs on the calling thread and the pool starts no thread, so `start` may fork:
/// a child inherits no other thread of the pool's that could hold a lock.
pool_summary run_pool(std::size_t count, const pool_options& o, const std::function<started_job(std::size_t)>& start,
                      const std::function<void(std::size_t, const std::string&)>& on_error);

}  // namespace twinsched::jobs
