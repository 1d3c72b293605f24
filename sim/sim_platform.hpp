// The simulated platform: the platform concept (models/platform.hpp) on SimGrid S4U, with modeled cache and sync costs.
//
// Overview
//   One modeled core is one single-core S4U host; worker i is an S4U actor on host i mod cores.
//   SimGrid has no cache model, so this platform charges costs itself: every atomic object
//   stands for one cache line and remembers which core last wrote it and which cores hold a
//   copy; an access that needs the line from elsewhere pays a same- or cross-socket transfer,
//   and the line stays busy for that transfer, so contended lines serialize. Locks add a
//   hand-off cost when they pass between cores, parking adds park/unpark/wake-up latency.
//   Charges accumulate per worker ("pending") and are paid with ONE simcall when the worker
//   next yields to the simulation: sleep_for(pending) on a core the worker has to itself,
//   execute(pending cycles) on a core it shares (SimGrid then shares the core fairly, so a
//   spinning worker visibly slows a busy one). A simcall costs ~1-5 us of real time, which is
//   why charges are never paid one by one.
//
// Time
//   A worker's local time is the simulated clock when it last resumed plus its pending
//   charges; now_ns() returns it (monotonic per worker). Interleaving (sim_config::fine):
//     coarse (default)  a worker yields at a platform operation only once its pending charge
//                       reached the machine's quantum_ns, and whenever it blocks (a held lock,
//                       park). Workers thus run ahead of the clock by at most one quantum; the
//                       line and lock "free at" times keep contention right within it.
//     fine              every atomic operation, fence and lock is a scheduling point (yields
//                       even with nothing to pay): slow, for exploring interleavings.
//   spin_pause() and yield_now() always add cost, so a polling loop advances the clock (a
//   loop of bare this_actor::yield() never would).
//
// Invariants
//   - Exactly one S4U actor runs at a time (contexts/nthreads = 1) and switches only inside
//     a simcall; every simcall this platform makes is followed by resume(), which restores
//     `sim_detail::g.cur` (the running actor's state: worker index, core, pending charge).
//     That is the per-actor identity current_worker() reads; thread_local would be shared
//     by all actors.
//   - Between two simcalls an actor runs alone, so the plain fields behind atomic<T>, mutex
//     and parker need no synchronization; memory orders are accepted and ignored (the
//     simulation is sequentially consistent: weak-memory bugs are the real backend's job).
//   - Nothing depends on addresses, wall clock or unseeded randomness: a run is a pure
//     function of scenario, seed, machine and options, whatever the context factory.
#pragma once
#include <array>
#include <atomic>  // std::memory_order
#include <bit>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <simgrid/forward.h>

#include "machine_model.hpp"
#include "models/platform.hpp"
#include "models/rng.hpp"
#include "models/trace_event.hpp"
#include "traces/recorder.hpp"

namespace twinsched {

/// Options of one simulation that are not part of the machine.
struct sim_config {
  std::uint32_t cores = 0;             ///< modeled cores; 0 = the machine's
  bool fine = false;                   ///< interleave = "fine"
  std::string context_factory = "raw"; ///< SimGrid contexts/factory: raw | boost | ucontext | thread
  double quantum_ns = 0;               ///< 0 = the machine's quantum_ns
  double time_limit_s = 3600;          ///< simulated seconds before the run is declared hung
};

namespace sim_detail {

/// The modeled cores holding a valid copy of a line: one bit per core, exact up to
/// max_cores (sim_platform rejects a larger machine rather than alias cores).
class core_set {
 public:
  static constexpr unsigned max_cores = 256;
  bool has(int core) const { return (w_[unsigned(core) / 64] >> (unsigned(core) % 64)) & 1u; }
  void add(int core) { w_[unsigned(core) / 64] |= std::uint64_t(1) << (unsigned(core) % 64); }
  void clear() { w_ = {}; }
  /// Only `core`, or nobody if core < 0.
  void only(int core) {
    w_ = {};
    if (core >= 0) add(core);
  }
  /// True if a core other than `core` holds a copy.
  bool any_but(int core) const {
    for (unsigned i = 0; i < words; ++i) {
      std::uint64_t w = w_[i];
      if (core >= 0 && unsigned(core) / 64 == i) w &= ~(std::uint64_t(1) << (unsigned(core) % 64));
      if (w) return true;
    }
    return false;
  }

 private:
  static constexpr unsigned words = max_cores / 64;
  std::array<std::uint64_t, words> w_{};
};

/// The coherence state of the cache line an atomic object stands for.
struct line_state {
  std::int32_t writer = -1;  ///< core that last wrote it; -1: not written inside the run yet
  core_set sharers;          ///< cores holding a valid copy
  double free_at = 0;        ///< simulated ns until which a transfer keeps the line busy
};

/// One S4U actor this platform runs: a worker, or the driver (worker = core = -1).
struct actor_state {
  int worker = -1;
  int core = -1;
  int socket = 0;
  bool shared_core = false;  ///< more than one worker on this core: pay with execute()
  double base_ns = 0;        ///< simulated clock at the last resume
  double pending_ns = 0;     ///< charged, not yet paid
  bool parked = false;       ///< blocked in a parker (for the hang report)
  bool finished = false;     ///< its function returned
};

/// The one simulation of this process (SimGrid's engine exists once per process).
struct state {
  actor_state* cur = nullptr;
  bool fine = false;
  bool aborting = false;
  double quantum = 1000;
  std::uint32_t cores_per_socket = 1;
  double clock_ghz = 1;
  // costs, ns
  double load = 0, store = 0, rmw = 0, fence = 0, same = 0, cross = 0, per_kib = 0, handoff = 0, queue_op = 0,
         park = 0, unpark = 0, wake = 0, spin = 0, yield = 0;
  std::uint64_t hash = 0xcbf29ce484222325ull;  ///< event hash: every yield, block, wake, trace event
  std::uint64_t flushes = 0, blocks = 0;
};
extern state g;

/// Pays the running actor's pending charge with one simcall and resumes (out of line).
void flush();
/// Blocks the running actor forever (after an abort); never returns to models/ code.
[[noreturn]] void halt();

inline void mix(std::uint64_t x) { g.hash = splitmix64(g.hash ^ x); }

/// A scheduling point: in fine mode always, in coarse mode once a quantum is pending.
inline void point() {
  actor_state* me = g.cur;
  if (me->core < 0) return;  // the driver: setup and collection happen outside simulated time
  if (g.fine || me->pending_ns >= g.quantum || g.aborting) flush();
}

inline double local_ns(const actor_state* me) { return me->base_ns + me->pending_ns; }
inline double transfer(int from, int to) {
  return std::uint32_t(from) / g.cores_per_socket == std::uint32_t(to) / g.cores_per_socket ? g.same : g.cross;
}

/// A read of line `l` by the running worker.
inline void read(line_state& l) {
  actor_state* me = g.cur;
  if (me->core < 0) return;
  double c = g.load;
  if (l.writer >= 0 && l.writer != me->core && !l.sharers.has(me->core)) {
    c += transfer(l.writer, me->core);
    l.sharers.add(me->core);
  }
  me->pending_ns += c;
}

/// A write (store or RMW costing `op`) of line `l` by the running worker: takes the line
/// exclusively, waiting while another transfer of it is in flight.
inline void write(line_state& l, double op) {
  actor_state* me = g.cur;
  if (me->core < 0) {
    l.writer = -1;
    l.sharers.clear();
    return;
  }
  double c = op;
  bool remote = (l.writer >= 0 && l.writer != me->core) || l.sharers.any_but(me->core);
  if (remote) {
    double t = l.writer >= 0 && l.writer != me->core ? transfer(l.writer, me->core) : g.same;
    double now = local_ns(me);
    double start = l.free_at > now ? l.free_at : now;
    c += (start - now) + t;
    l.free_at = start + t;
  }
  me->pending_ns += c;
  l.writer = me->core;
  l.sharers.only(me->core);
}

/// P::atomic<T>: std::atomic's member API over a plain T, charging coherence costs.
template <class T>
class atomic {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  atomic() noexcept : v_{} {}
  constexpr atomic(T v) noexcept : v_(v) {}  // NOLINT: implicit like std::atomic
  atomic(const atomic&) = delete;
  atomic& operator=(const atomic&) = delete;

  T load(std::memory_order = std::memory_order_seq_cst) const {
    point();
    read(line_);
    return v_;
  }
  void store(T v, std::memory_order o = std::memory_order_seq_cst) {
    point();
    write(line_, o == std::memory_order_seq_cst ? g.rmw : g.store);  // a seq_cst store is an xchg
    v_ = v;
  }
  T exchange(T v, std::memory_order = std::memory_order_seq_cst) {
    point();
    write(line_, g.rmw);
    T old = v_;
    v_ = v;
    return old;
  }
  bool compare_exchange_strong(T& expected, T desired, std::memory_order = std::memory_order_seq_cst,
                               std::memory_order = std::memory_order_seq_cst) {
    point();
    write(line_, g.rmw);  // lock cmpxchg takes the line exclusively, success or not
    if (std::bit_cast<repr>(v_) == std::bit_cast<repr>(expected)) {
      v_ = desired;
      return true;
    }
    expected = v_;
    return false;
  }
  bool compare_exchange_weak(T& expected, T desired, std::memory_order s = std::memory_order_seq_cst,
                             std::memory_order f = std::memory_order_seq_cst) {
    return compare_exchange_strong(expected, desired, s, f);  // never fails spuriously
  }
  T fetch_add(T d, std::memory_order = std::memory_order_seq_cst)
    requires std::is_integral_v<T>
  {
    point();
    write(line_, g.rmw);
    T old = v_;
    v_ = T(old + d);
    return old;
  }
  T fetch_sub(T d, std::memory_order = std::memory_order_seq_cst)
    requires std::is_integral_v<T>
  {
    point();
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
  void lock() {
    point();
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
  void park() { wait(-1); }
  void park_for(std::uint64_t ns) { wait(double(ns)); }
  void unpark() {
    point();
    write(line_, g.rmw);
    if (token_) return;
    token_ = true;
    if (waiting_) notify();
  }

 private:
  void wait(double ns) {
    point();
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
  struct s4u_parts;
  s4u_parts* s4u_ = nullptr;  // made on first block; owned
};

}  // namespace sim_detail

/// What a simulation run counted besides the scheduler's result.
struct sim_stats {
  double sim_ns = 0;            ///< simulated time when the engine stopped
  std::uint64_t event_hash = 0; ///< hash of every yield, block, wake and trace event, in order
  std::uint64_t flushes = 0;    ///< simcalls that paid pending charges
  std::uint64_t blocks = 0;     ///< times a worker blocked (lock or park)
  std::uint64_t trace_events = 0;
  std::uint64_t migrations = 0;
  bool aborted = false;         ///< a worker failed or the time limit hit: result incomplete
  std::vector<std::string> errors;
};

class sim_platform {
 public:
  static constexpr const char* backend_name = "sim";
  template <class T>
  using atomic = sim_detail::atomic<T>;
  using mutex = sim_detail::mutex;
  using parker = sim_detail::parker;

  /// Creates the SimGrid engine (once per process) and one host per modeled core.
  sim_platform(const machine_model& m, const sim_config& c);
  ~sim_platform();
  sim_platform(const sim_platform&) = delete;
  sim_platform& operator=(const sim_platform&) = delete;

  /// Runs `driver` in an S4U actor (it builds the scheduler and calls run(), which starts
  /// and joins the workers) and runs the engine until the simulation ends. Once.
  void run(std::function<void()> driver);

  static void fence(std::memory_order o) {
    sim_detail::point();
    if (o == std::memory_order_seq_cst) sim_detail::g.cur->pending_ns += sim_detail::g.cur->core < 0 ? 0 : sim_detail::g.fence;
  }

  std::uint64_t now_ns() const;
  void burn_ns(std::uint64_t ns) { charge(double(ns)); }
  void charge_ns(std::uint64_t ns) { charge(double(ns)); }
  void spin_pause() { charge(sim_detail::g.spin); }
  void yield_now();

  void start_worker(int index, std::function<void()> fn);
  void join_workers();
  int current_worker() const { return sim_detail::g.cur ? sim_detail::g.cur->worker : -1; }
  unsigned hardware_workers() const { return cores_; }
  void trace(const trace_event& ev);
  /// Record trace events into `r` (exact simulated times) as well as hashing them; null: hash only.
  void attach_trace(traces::recorder* r) { recorder_ = r; }

  /// Platform contract 12: an actor whose state (`bytes`) was last used on
  /// `from_worker`'s core now runs on `to_worker`'s: charges migration_per_kib.
  void migrate_state(unsigned from_worker, unsigned to_worker, std::uint32_t bytes);
  /// Platform contract 11: one run-queue push or pop's non-atomic work (queue_op). Static,
  /// like fence(), because the deques that would call it hold no platform reference.
  static void queue_op() {
    sim_detail::actor_state* me = sim_detail::g.cur;
    if (me->core < 0) return;
    me->pending_ns += sim_detail::g.queue_op;
    sim_detail::point();
  }

  unsigned cores() const { return cores_; }
  const sim_stats& stats() const { return stats_; }
  /// Records a failure and stops the simulation: every worker halts at its next yield.
  void abort_run(const std::string& why);
  /// What the run is doing (scheduler::state_report), appended to the error when the
  /// simulated time limit declares it hung; set while the scheduler exists, empty after.
  void set_state_report(std::function<std::string()> f) { state_report_ = std::move(f); }

 private:
  void charge(double ns) {
    sim_detail::actor_state* me = sim_detail::g.cur;
    if (me->core < 0) return;
    me->pending_ns += ns;
    sim_detail::point();
  }
  struct impl;
  std::unique_ptr<impl> impl_;
  traces::recorder* recorder_ = nullptr;
  std::function<std::string()> state_report_;
  unsigned cores_ = 1;
  double abort_clock_s_ = 0;
  sim_stats stats_;
};

static_assert(platform<sim_platform>);

}  // namespace twinsched
