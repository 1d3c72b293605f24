// The platform concept: the only door from scheduling code (models/) to the machine.
//
// Overview
//   Every policy, idle strategy and the worker loop are templates over a platform P. The
//   real platform (runtime/thread_platform.hpp) maps each need onto std::thread,
//   std::atomic, a parker made of a mutex and a condition variable behind an atomic fast
//   path, and the steady clock; the simulated platform (sim/sim_platform.hpp) maps them onto
//   SimGrid S4U actors, simulated time and atomics that charge cache-coherence costs. Code
//   under models/ never names a thread, mutex, condition variable, std::atomic,
//   thread_local, clock or sleep (tests/lint/lint_models.sh greps for them and fails), so a
//   policy that compiles against this concept runs unchanged on both machines. What may
//   differ between them is timing, and the memory model: the simulator is sequentially
//   consistent, so only the real backend can expose a too-weak memory order.
//
// Contract (the concept `platform<P>` below checks that each operation exists with these
// signatures; the semantics are what each platform promises and the tests rely on)
//   1. `P::atomic<T>` offers the std::atomic member API: load, store, exchange,
//      compare_exchange_weak/strong (with success and failure orders), fetch_add and
//      fetch_sub (integral T), each taking std::memory_order arguments, with std::atomic's
//      semantics. The concept requires all of them for std::uint32_t and std::uint64_t (and
//      std::int64_t, which the Chase-Lev deque uses), and load/store/exchange/compare-
//      exchange for bool and pointers. A platform may give an operation a STRONGER order
//      than asked (the simulator and the ThreadSanitizer build run everything seq_cst),
//      never a weaker one; compare_exchange_weak may fail spuriously. `P::fence(order)` is
//      std::atomic_thread_fence.
//   2. `P::mutex` is BasicLockable (lock, unlock); models/ never locks one recursively.
//   3. `P::parker` is a one-token binary semaphore owned by one worker: `unpark()` deposits
//      the token (idempotent); `park()` returns once a token is available and consumes it;
//      `park_for(ns)` does the same but also returns after `ns`. An unpark that happens
//      before the park is never lost: this is what makes the idle protocol in parking.hpp
//      free of lost wake-ups. Spurious returns are allowed; callers re-check their condition.
//   4. `start_worker(i, fn)` runs fn on a new worker and makes `current_worker()` return i
//      there (-1 outside any worker). Real: a plain std::thread, not pinned, placed by the
//      OS. Simulated: an S4U actor on modeled core i mod cores. `join_workers()` waits for
//      every started worker to return. Callers serialize start_worker and join_workers
//      (scheduler.hpp: start_mutex_). `hardware_workers()` is how many workers can run at
//      once: the hardware threads, or the modeled cores (the idle strategies stretch their
//      timed parks when the workers outnumber it: models/idle/idle_decision.hpp, crowding).
//   5. `now_ns()` is monotonic time since the platform was made: the steady clock, or the
//      calling worker's simulated time (monotonic per worker).
//   6. `burn_ns(ns)` costs `ns` of CPU time on the calling worker. Real: a busy loop until a
//      deadline on the invariant TSC (not a precomputed iteration count, which does the work
//      it was calibrated for, at whatever time the clock frequency makes it take); a gap of
//      more than 1 us between two of its clock reads is time the thread did not run
//      (preemption, the hypervisor) and is not counted, so a preempted burn still burns its
//      full CPU time, as a simulated worker sharing a core does (runtime/thread_platform.cpp
//      says why, and what it cannot see). Simulated: `ns` plus the machine's `burn_call`
//      (the real loop's fixed cost per call) as an accumulated charge.
//   7. `spin_pause()` is one iteration of a spin loop (x86 `pause` on real cores),
//      `yield_now()` gives the core away; both may advance (simulated) time, and in
//      simulation both do, so a polling loop cannot stall the simulated clock.
//   8. `trace(ev)` takes one event for the recorder; workers call it only when tracing is on.
//      `sink_of(w)` gives worker w's way in, a `P::trace_sink` value a worker looks up once,
//      and `trace(sink, ev)` takes its events without looking it up again (the hot path).
//      Its time is `now_ns()` at the event, unless the platform declares
//      `static constexpr bool stamps_trace_events = true`: then models/ passes time 0 and the
//      platform stamps events itself with a cheaper clock (the real platform: see
//      traces/event_lane.hpp). Simulated time is exact and cheap, so the simulator need not.
//   9. `P::backend_name` names the backend in results ("threads", "sim").
//
// Costs (the concept `platform_costs<P>`, part of `platform<P>`)
//   Hooks through which models/ tells the platform what an operation would cost on the
//   modeled machine. Only the simulator gives them meaning; on real cores the hardware pays
//   the cost for real and each hook is an empty inline function.
//   10. `charge_ns(ns)`: work that really ran (a behavior's `did_work_ns`, e.g. pi's series
//       terms) costs `ns` on the modeled machine.
//   11. `P::queue_op(kind)` (static, like fence: the queues that call it hold no platform
//       reference): the work of one run-queue push or pop besides its atomics: `deque`
//       (policy/chase_lev_deque.hpp; the default) is charged as the machine's `queue_op`,
//       `locked` (policy/locked_fifo.hpp, policy/dispatcher_queue.hpp: what a lock-guarded
//       queue costs beyond the lock word's RMW, e.g. the unlock's exchange and the calls) as
//       its `locked_queue_op`.
//   12. `migrate_state(from, to, bytes, where)`: an actor last run by worker `from` now runs
//       on `to` (worker.hpp, at the start of a turn); the simulator charges moving its
//       `bytes` of state between their cores (`migration_per_kib`) and the lines of its
//       cell and behavior: three line transfers when the behavior lives apart (behavior_at),
//       one when it lives in the cell's first line beside the mailbox.
//   13. `touch_state(actor, bytes, at)`: the calling worker touches actor `actor`: a push
//       (`touch_at::push`) writes its cell (the mailbox); the start of its turn
//       (`touch_at::turn`) reads the cell, the behavior object and `bytes` of declared
//       state, wherever the behavior lives (sim_platform.cpp, touch_state, says why). The
//       simulator charges `cold_actor` when what it touches left every cache since the last
//       touch (its private-cache model: an LRU per core); no scheduling point.
//   14. `touch_message(slot, at)`: the calling worker touches the envelope with that slot
//       (envelope.hpp): a send (`touch_at::push`) writes it, a turn (`touch_at::turn`) reads
//       it to process its message. The simulator charges `cold_actor` when a read finds it
//       gone from every cache since it was written (in the same LRU as 13), as when a
//       last-in-first-out queue leaves a message waiting behind many others; the write costs
//       nothing (it waits in the store buffer while its line comes). No scheduling point.
//   14b. `touch_data(slot, bytes, at)`: the message in envelope `slot` carries `bytes` of data
//       its sender wrote and its receiver reads (context::send_data: an array, a matrix block,
//       in memory both reach). The send (`touch_at::push`) wrote them on the sender's core; the
//       turn (`touch_at::turn`) reads them. The simulator charges their transfer when the turn
//       runs on another core than the send (migration_per_kib, scaled like a line across
//       sockets, as migrate_state's state); on one core, nothing (a profile's turn costs hold
//       what reading them costs there). No scheduling point.
//   15. `P::runtime_work(op)` (static): the runtime's own non-atomic work that the atomics
//       above do not stand for, once per `runtime_op`: `message` (the worker loop's fixed
//       cost per message: dispatch to the behavior, counters), `turn` (per actor turn),
//       `envelope` (one envelope taken from and returned to a pool, charged at the send),
//       `mailbox_push` (per send), `mailbox_pop` (per message taken, charged with it; the
//       pop that finds a mailbox empty is part of `turn`). Called by worker.hpp; the simulator charges the machine's cost of the same name, without a
//       scheduling point (it is paid at the next one), so adding these terms moves no
//       operation's number in an explore schedule.
//
// Measuring and charging a behavior's own code
//   17. `turn_costs()` is the run's turn_cost_hook (models/cost_profile.hpp), or null: the
//       worker calls it around each behavior's receive (one branch per message when null).
//       Real: a recorder taking a cost profile (runtime/cost_recorder.hpp) when a run is
//       profiled. Simulated: a charger drawing each turn's cost from a profile
//       (sim/cost_charger.hpp) when a simulation is given one (`sim --costs`).
//
// Time outside the workers, and what a worker burned
//   18. `start_service(fn)` runs fn outside the workers, for the runtime's own service (the
//       timers: models/timer_service.hpp): `current_worker()` is -1 there and
//       `join_workers()` waits for it too. Real: a thread of its own, with the kernel's timer
//       slack at its minimum (a timed park there is a timer's precision). Simulated: an S4U
//       actor off the modeled cores, like the run's driver: what it does costs no simulated
//       time and is no scheduling point (the timers are the machine's clock hardware), and
//       while it waits with a timeout the run is not stuck (the all-parked check).
//   19. `cpu_ns()` is the calling worker's CPU time since it started. Real: the thread's CPU
//       clock (CLOCK_THREAD_CPUTIME_ID: a system call, read at a worker's start and end only).
//       Simulated: its simulated time less the time it spent blocked in a parker: its core was
//       busy (running turns, spinning or yielding) the rest of the time. Of each block, the
//       machine's block_cpu counts as CPU: the kernel's work to put the thread to sleep and
//       wake it, on its own CPU clock.
//
// Memory
//   20. `P::take_pages(bytes)` and `P::give_pages(p, bytes)` (static): the runtime's own large,
//       long-lived memory (the envelope depot's regions), `bytes` a multiple of 2 MiB, fresh
//       and 64-byte aligned; the caller constructs in it. Real: anonymous memory aligned to 2
//       MiB with MADV_HUGEPAGE, so that a burst of messages in flight faults once per 2 MiB
//       rather than per 4 KiB page (where the kernel has no huge page to give, the same memory
//       in small pages). Simulated: the heap.
//
// Failing
//   16. `fail(why)` never returns: an invariant broke (scheduler::fatal; the checks of a
//       `checks` run). Real: print `why` and abort the process. Simulated: record `why` as
//       the run's error, stop the simulation and halt the caller, so the run ends as a
//       failed result that names the violation (what `twinsched explore` looks for).
#pragma once
#include <atomic>  // std::memory_order only; the atomic type itself comes from the platform
#include <concepts>
#include <cstdint>
#include <functional>
#include <string>

#include "trace_event.hpp"

namespace twinsched {

class turn_cost_hook;

/// Contract 1, for values: what models/ may do with a flag or a pointer held in `A`.
template <class A, class T>
concept platform_atomic_value = std::default_initializable<A> && std::constructible_from<A, T> &&
                                requires(A& a, const A& ca, T v, T& expected, std::memory_order o) {
                                  { ca.load(o) } -> std::same_as<T>;
                                  { a.store(v, o) } -> std::same_as<void>;
                                  { a.exchange(v, o) } -> std::same_as<T>;
                                  { a.compare_exchange_weak(expected, v, o, o) } -> std::same_as<bool>;
                                  { a.compare_exchange_strong(expected, v, o, o) } -> std::same_as<bool>;
                                };

/// Contract 1, for counters: all of the above plus fetch_add and fetch_sub.
template <class A, class T>
concept platform_atomic_integer = platform_atomic_value<A, T> && requires(A& a, T v, std::memory_order o) {
  { a.fetch_add(v, o) } -> std::same_as<T>;
  { a.fetch_sub(v, o) } -> std::same_as<T>;
};

/// Contract 15: the runtime's own work per operation, which the simulator charges as the
/// machine's `message`, `turn`, `envelope`, `mailbox_push` and `mailbox_pop` costs.
/// Contract 11: which kind of run queue an operation is on.
enum class queue_kind : std::uint8_t { deque, locked };

enum class runtime_op : std::uint8_t { message, turn, envelope, mailbox_push, mailbox_pop };
/// Contract 13: what a touch of an actor reaches (a push: its cell; a turn: its cell and behavior).
enum class touch_at : std::uint8_t { push, turn };
/// Contract 12: where an actor's behavior lives: in its cell's first line, beside the
/// mailbox (spawn_as, up to 32 bytes: actor.hpp), or apart, on the heap.
enum class behavior_at : std::uint8_t { apart, in_cell };
inline constexpr unsigned runtime_op_count = 5;

/// Contract 10-15: the cost hooks only the simulator gives meaning to (no-ops on real cores).
template <class P>
concept platform_costs = requires(P& p, std::uint64_t ns, unsigned worker, std::uint32_t bytes, runtime_op op) {
  { p.charge_ns(ns) } -> std::same_as<void>;
  { P::queue_op() } -> std::same_as<void>;
  { P::queue_op(queue_kind::locked) } -> std::same_as<void>;
  { P::runtime_work(op) } -> std::same_as<void>;
  { p.migrate_state(worker, worker, bytes, behavior_at::in_cell) } -> std::same_as<void>;
  { p.touch_state(std::uint32_t{}, bytes, touch_at::push) } -> std::same_as<void>;
  { p.touch_message(std::uint32_t{}, touch_at::turn) } -> std::same_as<void>;
  { p.touch_data(std::uint32_t{}, bytes, touch_at::turn) } -> std::same_as<void>;
};

/// Contract 1-20: everything models/ may ask of the machine.
template <class P>
concept platform =
    platform_costs<P> &&
    // 1. atomics and fences
    platform_atomic_integer<typename P::template atomic<std::uint32_t>, std::uint32_t> &&
    platform_atomic_integer<typename P::template atomic<std::uint64_t>, std::uint64_t> &&
    platform_atomic_integer<typename P::template atomic<std::int64_t>, std::int64_t> &&
    platform_atomic_value<typename P::template atomic<bool>, bool> &&
    platform_atomic_value<typename P::template atomic<void*>, void*> &&
    // 2. mutex, 3. parker
    std::default_initializable<typename P::mutex> && std::default_initializable<typename P::parker> &&
    requires(P& p, const P& cp, typename P::parker& pk, typename P::mutex& mx, std::function<void()> fn,
             std::uint64_t ns, int i, std::memory_order o, const trace_event& ev) {
      { P::fence(o) } -> std::same_as<void>;
      { mx.lock() } -> std::same_as<void>;
      { mx.unlock() } -> std::same_as<void>;
      { pk.park() } -> std::same_as<void>;
      { pk.park_for(ns) } -> std::same_as<void>;
      { pk.unpark() } -> std::same_as<void>;
      // 4. workers
      { p.start_worker(i, fn) } -> std::same_as<void>;
      { p.join_workers() } -> std::same_as<void>;
      { cp.current_worker() } -> std::same_as<int>;
      { cp.hardware_workers() } -> std::same_as<unsigned>;
      // 5. time, 6. burning CPU, 7. spinning and yielding
      { cp.now_ns() } -> std::same_as<std::uint64_t>;
      { p.burn_ns(ns) } -> std::same_as<void>;
      { p.spin_pause() } -> std::same_as<void>;
      { p.yield_now() } -> std::same_as<void>;
      // 8. tracing, 9. the backend's name
      { p.trace(ev) } -> std::same_as<void>;
      { cp.sink_of(0u) } -> std::same_as<typename P::trace_sink>;
      { p.trace(cp.sink_of(0u), ev) } -> std::same_as<void>;
      { P::backend_name } -> std::convertible_to<const char*>;
      // 16. failing
      { p.fail(std::string()) } -> std::same_as<void>;
      // 17. the hook around a behavior's own code
      { cp.turn_costs() } -> std::same_as<turn_cost_hook*>;
      // 18. the runtime's service, 19. a worker's CPU time
      { p.start_service(fn) } -> std::same_as<void>;
      { cp.cpu_ns() } -> std::same_as<std::uint64_t>;
      // 20. memory
      { P::take_pages(std::size_t{}) } -> std::same_as<void*>;
      { P::give_pages(static_cast<void*>(nullptr), std::size_t{}) } -> std::same_as<void>;
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
