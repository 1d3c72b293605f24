// What one run measured: totals, per-worker shares and counters, and the correctness verdict.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace twinsched {

struct worker_stats {
  std::uint64_t messages = 0;   ///< messages processed by this worker
  std::uint64_t turns = 0;      ///< actor turns (runs of up to `burst` messages)
  std::uint64_t steals = 0;     ///< actors taken from another worker's queue
  std::uint64_t parks = 0;      ///< times the worker blocked
  std::uint64_t wakeups = 0;    ///< times this worker woke another one
  std::uint64_t donations = 0;  ///< messages this worker donated to an idle equal actor (donation)
  std::uint64_t migrations = 0; ///< actors this worker moved to another dispatcher (sharing, adaptive)
  std::uint64_t busy_ns = 0;    ///< time in spells that ran turns: from a turn to the next time it found no work
  std::uint64_t idle_ns = 0;    ///< the rest: the idle strategy (spinning, yielding, parked), spells without a turn
  std::uint64_t parked_ns = 0;  ///< of idle_ns, the time blocked in a park (the rest spun, yielded or retried)
  std::uint64_t cpu_ns = 0;     ///< CPU time the worker used (platform.hpp 19): turns, spinning and yielding
};

/// A distribution of nanosecond values, as the summary reports it (from a log_histogram:
/// each quantile is the middle of its bucket, within 3.2% of the exact value).
struct latency_summary {
  std::uint64_t count = 0;
  double mean_ns = 0;
  std::uint64_t p50_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0;
};

/// One actor's deliveries, collected when tracing: the trace diff's logical-equivalence check.
struct actor_stats {
  std::uint32_t id = 0, group = 0;
  std::uint64_t delivered = 0;  ///< messages processed: counted by the trace recorder from run_end events, 0 here
  std::uint64_t digest = 0;     ///< order-independent digest of the delivered payloads (delivery_tally.hpp; full level)
};

struct run_result {
  std::string scenario, backend, policy, idle, workload;
  std::uint32_t workers = 0;
  std::uint64_t messages = 0;          ///< processed, including dead letters
  std::uint64_t expected_messages = 0;
  std::uint64_t dead_letters = 0;
  std::uint64_t leftover = 0;          ///< non-empty mailboxes + queued actors at the end (must be 0)
  double wall_s = 0;                   ///< from workers' start to quiescence
  std::vector<worker_stats> per_worker;  ///< one per worker slot (adaptive: up to max_workers)
  /// Running worker threads over time: (seconds since the workers started, count), one
  /// point at the start and one per thread start or retirement.
  std::vector<std::pair<double, unsigned>> thread_timeline;
  unsigned peak_workers = 0;           ///< most threads running at once
  unsigned final_workers = 0;          ///< threads running when the run ended
  double scale_up_s = 0;               ///< from the first thread start to reaching the peak (0: never grew)
  std::uint64_t checksum = 0, reference = 0;
  std::string detail;                  ///< the workload's own result line, if any
  std::vector<std::string> errors;     ///< behavior exceptions, with the actor's name
  bool workload_ok = true;
  std::vector<actor_stats> per_actor;  ///< every actor, in no particular order; only when tracing
  /// Requests' latency, as the behaviors recorded it (context::record_latency): open-loop workloads.
  latency_summary request_latency;
  /// Runnable to running: from a push to the policy to the start of the turn it made, for
  /// every push from outside a worker (timers) and one in `scheduling_sample` of the workers'.
  latency_summary scheduling_delay;
  std::uint32_t scheduling_sample = 0;
  /// Timers: how many the service delivered, and how late after their deadline (its clock's precision).
  std::uint64_t timers = 0;
  double timer_late_mean_ns = 0;
  std::uint64_t timer_late_max_ns = 0;

  std::uint64_t cpu_ns() const {
    std::uint64_t t = 0;
    for (const auto& w : per_worker) t += w.cpu_ns;
    return t;
  }

  /// The workers' CPU time over their wall time (workers x wall_s): 1 is every worker on a core all along.
  double cpu_share() const {
    const double cores = double(per_worker.size());
    return wall_s > 0 && cores > 0 ? double(cpu_ns()) / (wall_s * 1e9 * cores) : 0;
  }
  /// The workers' CPU time for each message processed (for open-loop workloads, each request).
  double cpu_per_message_ns() const { return messages ? double(cpu_ns()) / double(messages) : 0; }

  double msgs_per_s() const { return wall_s > 0 ? double(messages) / wall_s : 0; }
  /// The verdict, one rule for every backend (run, sim, validate, replay, a trace's footer): the
  /// checksum matches the sequential reference, every expected message was processed and none
  /// is left over, the workload's own check passed, and no behavior threw.
  bool ok() const {
    return checksum == reference && messages == expected_messages && leftover == 0 && workload_ok && errors.empty();
  }
};

}  // namespace twinsched
