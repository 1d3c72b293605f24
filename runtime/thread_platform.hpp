// The real platform: std::thread workers, std::atomic, a parker on a mutex and condition variable (with an atomic fast path), the steady clock.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "models/platform.hpp"
#include "tsan_atomic.hpp"
#include "models/trace_event.hpp"
#include "traces/recorder.hpp"
#include "tsc_clock.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace twinsched {

class thread_platform {
 public:
#if defined(TWINSCHED_TSAN)
  template <class T>
  using atomic = tsan_atomic<T>;  // see tsan_atomic.hpp
  static void fence(std::memory_order) {}
#else
  template <class T>
  using atomic = std::atomic<T>;
  static void fence(std::memory_order o) { std::atomic_thread_fence(o); }
#endif
  using mutex = std::mutex;

  /// One-token binary semaphore (platform.hpp contract 3). The token lives in `state_`:
  /// unpark without a sleeper is one exchange; only a parked thread makes unpark take the
  /// lock and notify.
  class parker {
   public:
    void park() { wait(nullptr); }
    void park_for(std::uint64_t ns) {
      auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns);
      wait(&until);
    }
    void unpark() {
      if (state_.exchange(notified, std::memory_order_release) == parked) {  // pairs with wait's acquire
        std::lock_guard<std::mutex> g(m_);  // the sleeper is between its CAS and cv wait, or in it
        cv_.notify_one();
      }
    }

   private:
    enum : int { empty = 0, parked = 1, notified = 2 };
    void wait(const std::chrono::steady_clock::time_point* until) {
      if (state_.exchange(empty, std::memory_order_acquire) == notified) return;  // consume a token
      std::unique_lock<std::mutex> lk(m_);
      int expected = empty;
      if (!state_.compare_exchange_strong(expected, parked, std::memory_order_acquire)) {
        state_.store(empty, std::memory_order_relaxed);  // it was `notified`: consume
        return;
      }
      for (;;) {
        if (until) {
          if (cv_.wait_until(lk, *until) == std::cv_status::timeout) break;
        } else {
          cv_.wait(lk);
        }
        if (state_.load(std::memory_order_acquire) == notified) break;
      }
      state_.store(empty, std::memory_order_relaxed);  // consume the token or cancel `parked`
    }
    std::atomic<int> state_{empty};
    std::mutex m_;
    std::condition_variable cv_;
  };

  /// `calibrate_burn`: time the busy loop (burn_ns) now, a few milliseconds, so that no turn pays for it.
  /// A run whose workload never burns (workload::burns) skips it; a burn_ns would still
  /// calibrate at its first call.
  explicit thread_platform(bool calibrate_burn = true);

  std::uint64_t now_ns() const {
    return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
  }
  void burn_ns(std::uint64_t ns);
  void charge_ns(std::uint64_t) {}
  /// Contract 17: the recorder of a profiled run, or null.
  turn_cost_hook* turn_costs() const { return costs_; }
  void set_turn_costs(turn_cost_hook* h) { costs_ = h; }
  void migrate_state(unsigned, unsigned, std::uint32_t, behavior_at) {}
  void touch_state(std::uint32_t, std::uint32_t, touch_at) {}
  void touch_message(std::uint32_t, touch_at) {}
  void touch_data(std::uint32_t, std::uint32_t, touch_at) {}
  static void queue_op(queue_kind = queue_kind::deque) {}
  static void runtime_work(runtime_op) {}  // contract 15: the hardware pays for itself
  static constexpr const char* backend_name = "threads";
  /// Contract 20: anonymous memory aligned to 2 MiB, advised to the kernel as huge pages.
  static void* take_pages(std::size_t bytes);
  static void give_pages(void* p, std::size_t bytes);
  void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
  }
  void yield_now() { std::this_thread::yield(); }
  /// Contract 16: an invariant broke; print it and abort.
  [[noreturn]] void fail(const std::string& why) {
    std::fprintf(stderr, "twinsched: %s\n", why.c_str());
    std::abort();
  }

  void start_worker(int index, std::function<void()> fn);
  /// Contract 18: a thread of its own, with the smallest timer slack (its timed parks are timers).
  void start_service(std::function<void()> fn);
  void join_workers();
  /// Contract 19: the calling thread's CPU clock.
  static std::uint64_t cpu_ns();
  int current_worker() const;
  static unsigned hardware_workers() { return std::max(1u, std::thread::hardware_concurrency()); }
  /// Trace events go to the attached recorder's lane of `ev.worker`, stamped with the TSC now
  /// and then (traces/event_lane.hpp): a few stores per event, no lock, no allocation.
  static constexpr bool stamps_trace_events = true;  // platform.hpp contract 8
  void trace(const trace_event& ev) {
    if (trace_sink lane = sink_of(ev.worker)) trace(lane, ev);
  }
  /// A worker's lane (workers past the recorder's lanes share the outside one); null while
  /// no recorder is attached, when no worker traces.
  using trace_sink = traces::event_lane*;
  trace_sink sink_of(unsigned worker) const {
    return lanes_ ? &lanes_[worker < lane_count_ ? worker : lane_count_] : nullptr;
  }
  [[gnu::always_inline]] void trace(trace_sink lane, const trace_event& ev) {
    // read only when stamping; raw ticks: the writer subtracts the clock's base (tick_clock.hpp)
    lane->push_sampled(ev, [] { return tsc_clock::read(); });
  }
  /// Sends trace events to `r` (its clock must be a tsc_clock); null detaches.
  void attach_trace(traces::recorder* r) {
    lanes_ = r ? r->lanes() : nullptr;
    lane_count_ = r ? r->worker_lanes() : 0;
  }

 private:
  std::chrono::steady_clock::time_point t0_;
  std::vector<std::thread> threads_;
  traces::event_lane* lanes_ = nullptr;  // worker lanes, then the outside lane
  unsigned lane_count_ = 0;
  turn_cost_hook* costs_ = nullptr;
};

static_assert(platform<thread_platform>);

/// Busy-loop iterations per microsecond on this machine, measured once per process (about
/// 10 ms; the benchmarks call it before timing anything; it also measures burn_ticks_per_ns).
double burn_loops_per_us();
/// burn_ns's clock rate (TSC ticks per steady-clock ns), measured once per process (~4 ms) by
/// the first thread_platform, outside any timed run.
double burn_ticks_per_ns();

}  // namespace twinsched
