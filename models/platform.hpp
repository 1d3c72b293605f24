// The platform concept: the only door from scheduling code (models/) to the machine.
//
// Overview
//   Every policy, idle strategy and the worker loop are templates over a platform P. The
//   real platform (runtime/thread_platform.hpp) maps each need onto std::thread, std::atomic,
//   futex-backed parking and the steady clock; the simulated platform (sim/) maps them onto
//   SimGrid S4U actors, simulated time and cost-charging atomics. Code under models/ never
//   names a thread, mutex, condition variable, std::atomic, thread_local, clock or sleep
//   (tests/lint_test.sh greps for them), so a policy that compiles against this concept
//   behaves identically on both machines, up to timing.
//
// Contract
//   1. `P::atomic<T>` offers the std::atomic member API used here (load, store, exchange,
//      compare_exchange_weak/strong, fetch_add, fetch_sub) with std::memory_order arguments
//      and the same semantics. `P::fence(order)` is std::atomic_thread_fence.
//   2. `P::mutex` is BasicLockable and never recursive.
//   3. `P::parker` is a one-token binary semaphore owned by one worker: `unpark()` deposits
//      the token (idempotent); `park()` returns once a token is available and consumes it;
//      `park_for(ns)` does the same but also returns after `ns`. An unpark that happens
//      before the park is never lost: this is what makes the idle protocol in parking.hpp
//      free of lost wake-ups. Spurious returns are allowed; callers re-check their condition.
//   4. `start_worker(i, fn)` runs fn on a new worker (a thread pinned where the platform
//      chooses; in simulation, on core i mod cores) and makes `current_worker()` return i
//      there. `join_workers()` waits for all started workers to return.
//   5. `now_ns()` is monotonic time since the run began: real or simulated.
//   6. `burn_ns(ns)` costs `ns` of CPU time on the calling worker: a calibrated busy loop on
//      real cores, an accumulated charge in simulation. `charge_ns(ns)` declares that work
//      which really ran costs `ns` on the modeled machine: a no-op on real cores.
//   9. `migrate_state(from, to, bytes)`: an actor last run by worker `from` now runs on `to`;
//      the simulator charges moving its state between their cores (free on real cores: the
//      hardware pays it for real). `P::queue_op()` is the non-atomic work of one run-queue
//      push or pop, charged in simulation. `P::backend_name` names the backend in results.
//   8. `trace(ev)` takes one event for the recorder; workers call it only when tracing is on.
//      Its time is `now_ns()` at the event, unless the platform declares
//      `static constexpr bool stamps_trace_events = true`: then models/ passes time 0 and the
//      platform stamps events itself with a cheaper clock (the real platform: see
//      traces/event_lane.hpp). Simulated time is exact and cheap, so the simulator need not.
//   7. `spin_pause()` is one iteration of a spin loop, `yield_now()` gives the core away,
//      both are allowed to advance (simulated) time.
#pragma once
#include <atomic>  // std::memory_order only; the atomic type itself comes from the platform
#include <concepts>
#include <cstdint>
#include <functional>

#include "trace_event.hpp"

namespace twinsched {

template <class P>
concept platform = requires(P& p, const P& cp, typename P::parker& pk, typename P::mutex& mx,
                            typename P::template atomic<std::uint64_t>& a64,
                            std::function<void()> fn, std::uint64_t ns, int i,
                            const trace_event& ev) {
  // time and cost
  { cp.now_ns() } -> std::same_as<std::uint64_t>;
  { p.burn_ns(ns) } -> std::same_as<void>;
  { p.charge_ns(ns) } -> std::same_as<void>;
  { p.migrate_state(0u, 0u, 0u) } -> std::same_as<void>;
  { P::queue_op() } -> std::same_as<void>;
  { P::backend_name } -> std::convertible_to<const char*>;
  { p.spin_pause() } -> std::same_as<void>;
  { p.yield_now() } -> std::same_as<void>;
  // workers
  { p.start_worker(i, fn) } -> std::same_as<void>;
  { p.join_workers() } -> std::same_as<void>;
  { cp.current_worker() } -> std::same_as<int>;
  { cp.hardware_workers() } -> std::same_as<unsigned>;
  { p.trace(ev) } -> std::same_as<void>;
  // synchronization
  { mx.lock() } -> std::same_as<void>;
  { mx.unlock() } -> std::same_as<void>;
  { pk.park() } -> std::same_as<void>;
  { pk.park_for(ns) } -> std::same_as<void>;
  { pk.unpark() } -> std::same_as<void>;
  { P::fence(std::memory_order_seq_cst) } -> std::same_as<void>;
  { a64.load(std::memory_order_acquire) } -> std::same_as<std::uint64_t>;
  { a64.fetch_add(ns, std::memory_order_relaxed) } -> std::same_as<std::uint64_t>;
  { a64.exchange(ns, std::memory_order_acq_rel) } -> std::same_as<std::uint64_t>;
};

/// True if P stamps trace events itself (contract 8).
template <class P>
inline constexpr bool stamps_trace_events = requires { requires P::stamps_trace_events; };

/// RAII lock over a platform mutex (std::lock_guard works too; this keeps models/ explicit).
template <class Mutex>
class lock_guard {
 public:
  explicit lock_guard(Mutex& m) : m_(m) { m_.lock(); }
  ~lock_guard() { m_.unlock(); }
  lock_guard(const lock_guard&) = delete;
  lock_guard& operator=(const lock_guard&) = delete;

 private:
  Mutex& m_;
};

}  // namespace twinsched
