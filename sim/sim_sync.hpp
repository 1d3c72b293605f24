// The simulated platform's synchronization primitives: P::atomic<T>, P::mutex and P::parker, each charging the cost model.
//
// Why plain fields suffice
//   Between two simcalls an actor runs alone, so the plain fields behind atomic<T>, mutex
//   and parker need no synchronization; memory orders are accepted and ignored (the
//   simulation is sequentially consistent: weak-memory bugs are the real backend's job).
//   Blocking (a lock whose holder yielded, a park) goes through S4U primitives, made on first
//   use; their out-of-line parts are in sim_sync.cpp.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>  // std::memory_order
#include <bit>
#include <cstdint>
#include <source_location>
#include <type_traits>

#include "cost_model.hpp"

namespace twinsched::sim_detail {

/// P::atomic<T>: std::atomic's member API over a plain T, charging coherence costs.
template <class T>
class atomic {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  atomic() noexcept : v_{} {}
  constexpr atomic(T v) noexcept : v_(v) {}  // NOLINT: implicit like std::atomic
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;

  T load(std::memory_order = std::memory_order_seq_cst, std::source_location at = std::source_location::current()) const {
    point(at);
    read(line_);
    return v_;
  }
  void store(T v, std::memory_order o = std::memory_order_seq_cst, std::source_location at = std::source_location::current()) {
    point(at);
    if (o == std::memory_order_seq_cst)
      write(line_, g.rmw);  // a seq_cst store is an xchg
    else
      write(line_, g.store, true);
    v_ = v;
  }
  T exchange(T v, std::memory_order = std::memory_order_seq_cst, std::source_location at = std::source_location::current()) {
    point(at);
    write(line_, g.rmw);
    T old = v_;
    v_ = v;
    return old;
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order = std::memory_order_seq_cst,
                               std::memory_order = std::memory_order_seq_cst, std::source_location at = std::source_location::current()) {
    point(at);
    write(line_, g.rmw);  // lock cmpxchg takes the line exclusively, success or not
    if (std::bit_cast<repr>(v_) == std::bit_cast<repr>(expected)) {
      v_ = desired;
      return true;
    }
    expected = v_;
    return false;
  }
  bool compare_exchange_weak(T& expected, T desired, std::memory_order s = std::memory_order_seq_cst,
                             std::memory_order f = std::memory_order_seq_cst, std::source_location at = std::source_location::current()) {
    return compare_exchange_strong(expected, desired, s, f, at);  // never fails spuriously
  }
  T fetch_add(T d, std::memory_order = std::memory_order_seq_cst, std::source_location at = std::source_location::current())
    requires std::is_integral_v<T>
  {
    point(at);
    write(line_, g.rmw);
    T old = v_;
    v_ = T(old + d);
    return old;
  }
  T fetch_sub(T d, std::memory_order = std::memory_order_seq_cst, std::source_location at = std::source_location::current())
    requires std::is_integral_v<T>
  {
    point(at);
    write(line_, g.rmw);
    T old = v_;
    v_ = T(old - d);
    return old;
  }

 private:
  using repr = std::conditional_t<sizeof(T) == 8, std::uint64_t,
               std::conditional_t<sizeof(T) == 4, std::uint32_t, std::conditional_t<sizeof(T) == 2, std::uint16_t, std::uint8_t>>>;
  T v_;
  mutable line_state line_;
};

/// P::mutex: never blocks in the simulation unless its holder yielded inside the critical
/// section (fine interleaving or an explored preemption; then waiters block on an S4U
/// condition variable). In coarse mode a worker holding a lock does not yield (point() in
/// cost_model.hpp), so critical sections run whole and contention is modeled in time: the
/// lock keeps its last 16 critical sections as spans of simulated time, and one taken
/// inside another worker's span (or before the oldest it remembers: it may have been inside
/// a forgotten one) waits for the span's end. One taken so shortly before a span that a
/// critical section as long would overlap it waits for its end too, uncontended (that one
/// already ran, so it went first). One taken outside every span goes through, even before a
/// span that already ran (the workers' clocks differ by up to a
/// quantum, and a worker that learned of the lock's data from inside a span, as a popper
/// learns of a push from the queue's size, did so after it in real time: counting it as
/// contention put 404k contended locks into pingpong on two dispatchers, where real cores
/// make no futex call but parks). A lock that moves to another core pays the line
/// transfer and lock_handoff.
///
/// A contended lock also pays what glibc's std::mutex does then (counted on real cores: one
/// futex wait and two futex wakes per contended acquisition, nearly every wait returning at
/// once on two cores): the waiter marks the lock word contended and makes a futex wait
/// syscall (`park`), and each of the two unlocks that find the word so, the holder's and then
/// the waiter's own, makes a futex wake syscall (`contended_unlock`). Where the holder lets
/// go within the waiter's syscall, the wait returns at once. Where it lets go later (a long
/// critical section, or a queue of waiters: 16 workers on one lock), the waiter is asleep:
/// the holder's wake finds a sleeper (`unpark`), and the waiter sleeps until a wake-up
/// latency (`wake_latency`) after the release, the lock free meanwhile: a worker arriving in
/// between takes it first, and the waiter then tries again (and may sleep again).
/// Without that, forward with a shared queue got faster in the model from 2 workers on where
/// real cores got slower; with it, part of that collapse is modeled, not all of it
/// (docs/VALIDATION.md, docs/ACCURACY.md). The holder has already unlocked when the waiter
/// runs (one worker runs at a time), so its wake is added to its pending charge.
///
/// A hand-off (`lock_handoff`: the data the lock guards coming over from the last holder's
/// core) lies inside the span of a lock taken by a waiter (one that arrived inside another's
/// critical section, this try or before a sleep in the futex): waiters queue behind a chain
/// of release, transfer, critical section, so whoever arrives during the transfer waits for
/// it too. A lock taken uncontended pays its hand-off before its span: nobody was waiting.
/// (Counting every hand-off inside the span put the idle worker's polls of pingpong's shared
/// queue on 2 workers inside the other's spans, each paying the futex path, far slower than
/// real runs.) Against the 16-core runs, this rule brought forward with a shared queue on 2
/// to 16 workers much closer to the real runs (docs/ACCURACY.md, "a waiter's hand-off inside
/// its critical section").
class mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  ~mutex();
  void lock(std::source_location at = std::source_location::current()) {
    point(at);
    bool marked = false;  // we marked the word contended: our own unlock makes a futex wake
    for (;;) {
      const bool blocked = held_;
      if (held_) block();
      actor_state* me = g.cur;
      if (me->core < 0) {
        held_ = true;
        return;
      }
      const double now = local_ns(me);
      span* in = blocked && next_ > 0 ? &recent_[(next_ - 1) % recent_.size()] : nullptr;  // the span we ran into
      double start = now;
      // Spans were forgotten: an arrival before all we remember may be inside one. Not before
      // the last span if it ended, so not before the oldest either: no scan.
      const span& last = recent_[(next_ - 1) % recent_.size()];
      if (next_ > recent_.size() && !(last.who && start >= last.acquired)) {
        span* oldest = nullptr;
        for (span& s : recent_)
          if (s.who && (!oldest || s.acquired < oldest->acquired)) oldest = &s;
        if (oldest && oldest->who != me && start < oldest->acquired) {
          start = oldest->acquired;
          in = oldest;
        }
      }
      start = after_spans(me, start, in);
      if (in) {
        ++g.contended_locks;
        if (g.contended_unlock > 0) {  // glibc's slow path (above)
          marked = true;
          // Asleep: the holder let go after our futex wait had gone to sleep. Its unlock
          // wakes us (a wake that finds a sleeper: `unpark`); we run `wake` later and try
          // again, the lock free meanwhile for whoever comes (glibc's lock is not fair).
          const bool asleep = start > now + g.park;
          if (!in->woke && in->who) in->who->pending_ns += asleep ? g.unpark : g.contended_unlock;  // its unlock found our mark
          in->woke = true;
          if (asleep) {
            me->pending_ns += start + g.wake - now;
            flush();
            continue;
          }
          start = std::max(start, now + g.park);
        }
      }
      held_ = true;
      wake_on_unlock_ = marked;
      me->pending_ns += start - now;
      write(line_, g.rmw);
      const double taken = local_ns(me);  // the lock word is ours; the data it guards still comes over
      if (owner_ >= 0 && owner_ != me->core) me->pending_ns += g.handoff;
      owner_ = me->core;
      ++me->locks_held;
      // A hand-off to a waiter (now, or before it slept) is part of its critical section
      // (see "A hand-off" above).
      recent_[next_++ % recent_.size()] = span{in || marked ? taken : local_ns(me), 0, nullptr, false};
      return;
    }
  }
  void unlock() {
    actor_state* me = g.cur;
    if (me->core >= 0) {
      write(line_, g.store);
      span& mine = recent_[(next_ - 1) % recent_.size()];
      mine.released = local_ns(me);
      if (wake_on_unlock_) me->pending_ns += g.contended_unlock;  // after the release, like glibc
      mine.who = me;
      mine.woke = wake_on_unlock_;
      latest_release_ = std::max(latest_release_, mine.released);
      --me->locks_held;
    }
    wake_on_unlock_ = false;
    held_ = false;
    if (waiters_) wake();
  }

 private:
  /// One critical section in simulated time; `who` is set once it ended.
  struct span {
    double acquired = 0, released = 0;
    actor_state* who = nullptr;
    bool woke = false;  ///< its unlock made a futex wake (a later waiter adds none)
  };
  /// The earliest time from `start` on that lies outside every remembered span of another
  /// worker (moving to a span's end while `start` is inside it, or so shortly before it that
  /// a critical section as long would overlap it: that one already ran, so it went first);
  /// `in` becomes the last span `start` was found inside (contended).
  double after_spans(const actor_state* me, double start, span*& in) {
    // From latest_release_ on no span can move `start` (nor hold it: `in` stays): the scan
    // would change nothing. Most locks, uncontended in simulated time, end here.
    if (start >= latest_release_) return start;
    for (bool moved = true; moved;) {
      moved = false;
      for (span& s : recent_) {
        if (!s.who || s.who == me || start >= s.released) continue;
        if (start >= s.acquired) {
          in = &s;  // inside it: contended
        } else if (start < 2 * s.acquired - s.released) {
          continue;  // before it, with room for a critical section as long
        }  // else ours would overlap it: it goes first (it already ran), no contention
        start = s.released;
        if (start >= latest_release_) return start;  // past every span: this pass and the next change nothing
        moved = true;
      }
    }
    return start;
  }
  void block();
  void wake();
  line_state line_;
  bool held_ = false;
  bool wake_on_unlock_ = false;  ///< taken contended: its unlock makes a futex wake
  int owner_ = -1;
  std::array<span, 16> recent_{};  ///< a ring: more than the workers that contend in a quantum
  double latest_release_ = 0;      ///< the latest `released` of any span that ended, forgotten ones too
  unsigned next_ = 0;
  unsigned waiters_ = 0;
  struct s4u_parts;
  s4u_parts* s4u_ = nullptr;  // made on first block; owned
};

/// P::parker: a one-token binary semaphore (platform.hpp contract 3) on an S4U condition
/// variable; the token is a plain flag (actors never run concurrently), blocking and
/// timeouts happen in simulated time, and a blocked worker pays park + wake-up latency.
class parker {
 public:
  parker() = default;
  parker(const parker&) = delete;
  parker& operator=(const parker&) = delete;
  ~parker();
  void park(std::source_location at = std::source_location::current()) { wait(-1, at); }
  void park_for(std::uint64_t ns, std::source_location at = std::source_location::current()) { wait(double(ns), at); }
  void unpark(std::source_location at = std::source_location::current()) {
    point(at);
    write(line_, g.rmw);
    if (token_) return;
    token_ = true;
    if (waiting_) notify();
  }

 private:
  void wait(double ns, const std::source_location& at) {
    point(at);
    write(line_, g.rmw);
    if (token_) {
      token_ = false;
      return;
    }
    block(ns);
  }
  void block(double ns);
  void notify();
  line_state line_;
  bool token_ = false;
  bool waiting_ = false;
  actor_state* sleeper_ = nullptr;  // who waits without a timeout (the all-parked check)
  struct s4u_parts;
  s4u_parts* s4u_ = nullptr;  // made on first block; owned
};

}  // namespace twinsched::sim_detail
