// The simulated platform's synchronization primitives: P::atomic<T>, P::mutex and P::parker, each charging the cost model.
//
// Why plain fields suffice
//   Between two simcalls an actor runs alone, so the plain fields behind atomic<T>, mutex
//   and parker need no synchronization; memory orders are accepted and ignored (the
//   simulation is sequentially consistent: weak-memory bugs are the real backend's job).
//   Blocking (a lock whose holder yielded, a park) goes through S4U primitives, made on first
//   use; their out-of-line parts are in sim_sync.cpp.
#pragma once
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
    write(line_, o == std::memory_order_seq_cst ? g.rmw : g.store);  // a seq_cst store is an xchg
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
/// section (then waiters block on an S4U condition variable). Contention is modeled in
/// time: a lock taken before its last release (in simulated time) waits for it, and a
/// lock that moves to another core pays the line transfer and lock_handoff.
class mutex {
 public:
  mutex() = default;
  mutex(const mutex&) = delete;
  mutex& operator=(const mutex&) = delete;
  ~mutex();
  void lock(std::source_location at = std::source_location::current()) {
    point(at);
    if (held_) block();
    held_ = true;
    actor_state* me = g.cur;
    if (me->core < 0) return;
    double now = local_ns(me);
    if (released_at_ > now) me->pending_ns += released_at_ - now;  // serialized behind the holder
    write(line_, g.rmw);
    if (owner_ >= 0 && owner_ != me->core) me->pending_ns += g.handoff;
    owner_ = me->core;
  }
  void unlock() {
    actor_state* me = g.cur;
    if (me->core >= 0) {
      write(line_, g.store);
      released_at_ = local_ns(me);
    }
    held_ = false;
    if (waiters_) wake();
  }

 private:
  void block();
  void wake();
  line_state line_;
  bool held_ = false;
  int owner_ = -1;
  double released_at_ = 0;
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
