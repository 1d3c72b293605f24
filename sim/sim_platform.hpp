// The simulated platform: the platform concept (models/platform.hpp) on SimGrid S4U, with modeled cache and sync costs.
//
// Overview
//   One modeled core is one single-core S4U host; worker i is an S4U actor on host i mod cores.
//   SimGrid has no cache model, so this platform charges costs itself: every atomic object
//   stands for one cache line and remembers which core last wrote it and which cores hold a
//   copy; an access that needs the line from elsewhere pays a same- or cross-socket transfer,
//   and the line stays busy for that transfer, so contended lines serialize (a plain store
//   pays it in the background, until the next fence or locked op: cost_model.hpp). Locks add a
//   hand-off cost when they pass between cores, and a lock taken inside another worker's
//   critical section (in simulated time) waits for it and pays glibc's futex slow path
//   (sim_sync.hpp); parking adds park/unpark/wake-up latency.
//   Charges accumulate per worker ("pending") and are paid with ONE simcall when the worker
//   next yields to the simulation: sleep_for(pending) on a core the worker has to itself,
//   execute(pending cycles) on a core it shares (SimGrid then shares the core fairly, so a
//   spinning worker visibly slows a busy one). A simcall costs ~0.6 us of real time, which is
//   why charges are never paid one by one; and where SimGrid would only move its clock and
//   resume one worker, flush's lookahead (cost_model.cpp) does that itself: the same worker
//   goes on with no simcall, or the one due next takes over in one simcall without a solve.
//   The parts: cost_model.hpp (the machine's costs, the cache-line model, local time and
//   interleaving: when and how charges are paid), sim_sync.hpp (P::atomic, P::mutex, P::parker), and this file (sim_config, the
//   platform itself: engine and hosts, workers, clock, tracing; sim_stats).
//
// Invariants
//   - Exactly one S4U actor runs at a time (contexts/nthreads = 1) and switches only inside
//     a simcall; every simcall this platform makes is followed by resume(), which restores
//     `sim_detail::g.cur` (the running actor's state: worker index, core, pending charge).
//     That is the per-actor identity current_worker() reads; thread_local would be shared
//     by all actors.
//   - Between two simcalls an actor runs alone (sim_sync.hpp says what this buys atomic<T>,
//     mutex and parker: no synchronization; memory orders accepted and ignored).
//   - Nothing depends on addresses, wall clock or unseeded randomness: a run is a pure
//     function of scenario, seed, machine and options, whatever the context factory.
#pragma once
#include <atomic>  // std::memory_order
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/forward.h>

#include "cost_model.hpp"
#include "machine_model.hpp"
#include "models/platform.hpp"
#include "models/trace_event.hpp"
#include "sim_sync.hpp"
#include "traces/recorder.hpp"

namespace twinsched {

/// Options of one simulation that are not part of the machine.
struct sim_config {
  std::uint32_t cores = 0;             ///< modeled cores; 0 = the machine's
  bool fine = false;                   ///< interleave = "fine"
  std::string context_factory = "raw"; ///< SimGrid contexts/factory: raw | boost | ucontext | thread
  double quantum_ns = 0;               ///< 0 = the machine's quantum_ns
  double time_limit_s = 3600;          ///< simulated seconds before the run is declared hung
  schedule_spec schedule;              ///< preemptions to inject (explore; schedule.hpp)
  std::uint64_t max_points = 0;        ///< platform operations before the run is declared livelocked (0: no limit)
  bool lookahead = true;  ///< flush without SimGrid where it would only resume the worker (cost_model.cpp)
};

/// What a simulation run counted besides the scheduler's result.
struct sim_stats {
  double sim_ns = 0;            ///< simulated time when the driver returned, the run was aborted, or the limit hit
  std::uint64_t event_hash = 0; ///< hash of every yield, block, wake and trace event, in order
  std::uint64_t flushes = 0;    ///< times a worker paid its pending charges (a simcall, or the lookahead)
  std::uint64_t lookahead_skips = 0;  ///< of those, paid without SimGrid (the lookahead)
  std::uint64_t hand_offs = 0;        ///< of those, resumed the worker due next without SimGrid's solve
  std::uint64_t holds = 0;            ///< of those, suspended the worker without a SimGrid action
  std::uint64_t blocks = 0;     ///< times a worker blocked (lock or park)
  std::uint64_t contended_locks = 0;  ///< locks taken while another worker held them
  std::uint64_t trace_events = 0;
  std::uint64_t migrations = 0;
  bool aborted = false;         ///< a worker failed or the time limit hit: result incomplete
  std::vector<std::string> errors;
  std::uint64_t points = 0;     ///< platform operations of all workers (preemption points)
  std::vector<preemption> preemptions;  ///< what the schedule applied, in order (sim_config::schedule)
};

class sim_platform {
 public:
  static constexpr const char* backend_name = "sim";
  /// Contract 20: the heap. Memory costs no simulated time, and the model names an envelope
  /// by its slot, never by its address.
  static void* take_pages(std::size_t bytes) { return ::operator new(bytes, std::align_val_t{64}); }
  static void give_pages(void* p, std::size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <class T>
  using atomic = sim_detail::atomic<T>;
  using mutex = sim_detail::mutex;
  using parker = sim_detail::parker;

  /// Runs on the engine and hosts prepare() makes (or made: once per process).
  sim_platform(const machine_model& m, const sim_config& c);
  /// Initializes SimGrid's engine with c's context factory and makes one host per modeled
  /// core, now, in a process that forks its simulations (explore's batches): each child's
  /// sim_platform starts from them instead of initializing SimGrid again, most of a small
  /// run's fixed cost. They hold no actor until a sim_platform starts some, so a child's run
  /// is the one a fresh process makes. A second call for the same cores, clock and factory
  /// does nothing; for others, throws std::logic_error.
  static void prepare(const machine_model& m, const sim_config& c);
  /// Whether this process may simulate another run: none yet, or the last one ended with
  /// nothing left in the engine (not aborted), which is then reset to a fresh one's state.
  static bool can_simulate_again();
  ~sim_platform();
  sim_platform(const sim_platform&) = delete;
  sim_platform& operator=(const sim_platform&) = delete;

  /// Runs `driver` in an S4U actor (it builds the scheduler and calls run(), which starts
  /// and joins the workers) and runs the engine until the simulation ends. Once.
  void run(std::function<void()> driver);

  static void fence(std::memory_order o) {
    sim_detail::point();
    if (o == std::memory_order_seq_cst && sim_detail::g.cur->core >= 0) {
      sim_detail::drain(sim_detail::g.cur);
      sim_detail::g.cur->pending_ns += sim_detail::g.fence;
    }
  }

  std::uint64_t now_ns() const;
  /// Contract 6: `ns` plus the real burn loop's fixed cost per call (burn_call).
  void burn_ns(std::uint64_t ns) { charge(double(ns) + sim_detail::g.burn_call); }
  void charge_ns(std::uint64_t ns) { charge(double(ns)); }
  /// Contract 17: the charger of a simulation given a profile, or null.
  turn_cost_hook* turn_costs() const { return costs_; }
  void set_turn_costs(turn_cost_hook* h) { costs_ = h; }
  void spin_pause() {
    if (sim_detail::g.cur->core >= 0) sim_detail::g.cur->idle = true;  // not_before (cost_model.hpp)
    charge(sim_detail::g.spin);
  }
  void yield_now();

  void start_worker(int index, std::function<void()> fn);
  /// Contract 18: an S4U actor off the modeled cores (no charges, no scheduling points).
  void start_service(std::function<void()> fn);
  void join_workers();
  /// Contract 19: the calling worker's simulated time less its time blocked in parkers (less
  /// block_cpu of each block: the thread's own CPU in it).
  std::uint64_t cpu_ns() const {
    const sim_detail::actor_state* me = sim_detail::g.cur;
    const double t = sim_detail::local_ns(me) - me->blocked_ns;
    return t > 0 ? std::uint64_t(std::llround(t)) : 0;
  }
  int current_worker() const { return sim_detail::g.cur ? sim_detail::g.cur->worker : -1; }
  unsigned hardware_workers() const { return cores_; }
  void trace(const trace_event& ev);
  using trace_sink = unsigned;  // contract 8: the worker; an event carries it anyway
  trace_sink sink_of(unsigned worker) const { return worker; }
  void trace(trace_sink, const trace_event& ev) { trace(ev); }
  /// Record trace events into `r` (exact simulated times) as well as hashing them; null: hash only.
  void attach_trace(traces::recorder* r) { recorder_ = r; }

  /// Platform contract 12: an actor whose state (`bytes`) was last used on
  /// `from_worker`'s core now runs on `to_worker`'s: charges migration_per_kib for the
  /// state and a line transfer per line of its cell and behavior (actor_overhead_lines, or
  /// in_cell_lines for a behavior in the cell).
  void migrate_state(unsigned from_worker, unsigned to_worker, std::uint32_t bytes,
                     behavior_at where = behavior_at::apart);
  /// Platform contract 13: the running worker touches `actor` (cell and `bytes` of state):
  /// charges cold_actor if the private-cache model (sim_platform.cpp) says it left the caches.
  void touch_state(std::uint32_t actor, std::uint32_t bytes, touch_at at = touch_at::turn);
  /// Contract 14: a send writes envelope `slot` (push), a turn reads it (turn).
  void touch_message(std::uint32_t slot, touch_at at);
  /// Contract 14b: a send records the core that wrote a message's data; a turn on another
  /// core pays their transfer (migration_per_kib per KiB, scaled across sockets).
  void touch_data(std::uint32_t slot, std::uint32_t bytes, touch_at at);
  /// Platform contract 11: one run-queue push or pop's non-atomic work (queue_op). Static,
  /// like fence(), because the deques that would call it hold no platform reference.
  static void queue_op(queue_kind k = queue_kind::deque) {
    sim_detail::actor_state* me = sim_detail::g.cur;
    if (me->core < 0) return;
    me->pending_ns += sim_detail::g.queue_op[unsigned(k)];
    sim_detail::point();
  }

  /// Platform contract 15: the runtime's own work for one `op` (message, turn, envelope,
  /// mailbox push or pop), charged to the calling worker. Not a scheduling point: it is paid
  /// at the next one, so these charges number no new operations in an explore schedule.
  static void runtime_work(runtime_op op) {
    sim_detail::actor_state* me = sim_detail::g.cur;
    if (me->core < 0) return;
    if (op == runtime_op::turn) me->idle = false;  // busy again (not_before)
    me->pending_ns += sim_detail::g.runtime[unsigned(op)];
  }

  unsigned cores() const { return cores_; }
  const sim_stats& stats() const { return stats_; }
  /// Records a failure and stops the simulation: every worker halts at its next yield.
  void abort_run(const std::string& why);
  /// Contract 16: an invariant broke. The run fails with `why` as its error; the caller
  /// halts (its stack points into the scheduler, which is never unwound).
  [[noreturn]] void fail(const std::string& why);
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
  turn_cost_hook* costs_ = nullptr;
  std::function<std::string()> state_report_;
  std::unique_ptr<sim_detail::schedule_perturbation> schedule_;
  static void on_maybe_all_parked();
  static void on_points_spent();
  /// `bytes` moved from core `from`'s cache to `to`'s in a burst: migration_per_kib a KiB,
  /// scaled like a line across sockets (migrate_state's state, touch_data's data).
  static double stream_ns(int from, int to, std::uint32_t bytes);
  /// ", at simulated T ns, scheduling point #n (worker w)": where a failure happened.
  std::string where_now() const;
  unsigned cores_ = 1;
  // the private-cache model (touch_state); cache_bytes_ 0: off
  /// Bytes a turn touches besides the actor's declared state: its cell (mailbox, flags,
  /// counters) and its behavior object, about 130 + 60 on the real backend.
  static constexpr double actor_overhead_bytes = 192;
  /// The lines of those bytes a migrated turn misses on (migrate_state): scattered, one transfer each.
  static constexpr double actor_overhead_lines = actor_overhead_bytes / 64;
  /// The same with the behavior in the cell's first line (behavior_at::in_cell): that line
  /// only. A behavior apart cost a migration two more transfers (its line's read, then its
  /// write); forward on 2 workers with its behaviors apart, then in the cell, measures it
  /// (docs/PERFORMANCE.md).
  static constexpr double in_cell_lines = 1;
  /// Of those, the cell's (a push writes them); the rest, with the declared state, are the behavior's.
  static constexpr double cell_bytes = 128;
  double cache_bytes_ = 0, cold_actor_ = 0;
  double memory_load_ = 0;  // a queued message read from memory (touch_message); cold_actor_ where the model has none
  double stream_load_ = 0;  // a line of a stream the prefetcher follows (touch_message, touch_state)
  bool streams_ = false;    // the machine has stream_load
  std::vector<std::uint32_t> last_read_slot_;  // per core: the envelope slot its last turn read, or no_stream
  std::vector<std::uint32_t> last_cold_actor_;  // per core: the actor it last missed on, or no_stream
  std::vector<std::int16_t> data_core_;  // by envelope slot: the core whose send wrote its message's data (touch_data)
  static constexpr std::uint32_t no_stream = ~0u;
  double shared_bytes_ = 0, llc_actor_ = 0;  // the shared level; shared_bytes_ 0: off
  static constexpr std::uint32_t no_unit = ~0u;
  // The lists hold units: 2a is actor a's cell, 2a + 1 its behavior and declared state;
  // envelope_unit | s the envelope with slot s (kept apart, in envelope_touch_).
  static constexpr std::uint32_t envelope_unit = 1u << 31;
  struct place {                  ///< a unit's place in one LRU list
    std::uint32_t prev = no_unit, next = no_unit;  ///< toward the list's head (newer) and tail (older)
    bool in = false;              ///< in the list (not evicted since)
  };
  struct touch {                  ///< per unit
    place priv;                   ///< in the private list of the core that touched it last
    place shared;                 ///< in the shared list
    std::uint32_t core = 0;
    double footprint = 0;         ///< bytes it holds in a cache
  };
  struct lru {                    ///< the units a cache holds, newest first
    std::uint32_t head = no_unit, tail = no_unit;
    double bytes = 0;
  };
  void unlink(lru& l, place touch::*which, std::uint32_t unit);
  void link_front(lru& l, place touch::*which, std::uint32_t unit, double capacity);
  /// The calling worker's core touches `unit`: moves it to the front of that core's list (and
  /// the shared one). Returns whether it was in no private list; `from_memory` is set when it
  /// was in no list at all.
  bool touch_unit(std::uint32_t unit, double footprint, bool& from_memory);
  /// Where `unit` is kept: envelope_touch_ for envelopes, last_touch_ for actors' parts,
  /// indexed by unit & ~envelope_unit.
  std::vector<touch>& touches_of(std::uint32_t unit) { return unit & envelope_unit ? envelope_touch_ : last_touch_; }
  touch& unit_touch(std::uint32_t unit) { return touches_of(unit)[unit & ~envelope_unit]; }
  std::vector<lru> lru_;  // per modeled core
  lru shared_lru_;
  std::vector<touch> last_touch_, envelope_touch_;
  double abort_clock_s_ = 0;
  sim_stats stats_;
};

static_assert(platform<sim_platform>);

}  // namespace twinsched
