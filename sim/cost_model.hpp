// The simulator's cost model: the machine's costs, the coherence state of a cache line, and how charges become simulated time.
//
// The overview in sim_platform.hpp says what is charged; this file is where the charging
// happens. read() and write() charge one access to a line, transfer() prices moving a line
// between two cores, point() decides when a worker pays, flush() (cost_model.cpp) pays with one
// simcall. The other terms (lock hand-off, park, unpark, wake-up, migration, queue_op, spin,
// yield, burn_call, and the runtime's own work per message, turn, envelope and mailbox op) are added to the same pending charge by sim_sync.hpp and sim_platform.hpp. Each term
// is checked on its own, in simulated time, by tests/sim/cost_model_test.cpp.
//
// Time
//   A worker's local time is the simulated clock when it last resumed plus its pending
//   charges; now_ns() returns it (monotonic per worker). Interleaving (sim_config::fine):
//     coarse (default)  a worker yields at a platform operation only once its pending charge
//                       reached a threshold drawn around the machine's quantum_ns (half to one
//                       and a half quanta, next_yield_at), and whenever it blocks (a held lock,
//                       park); not while it holds a lock (critical sections run whole; a
//                       lock held past 64 quanta yields anyway, so a livelock inside one
//                       still ends). Workers thus run ahead of the clock by about 1.5 quanta; the
//                       line and lock "free at" times keep contention right within it, and an
//                       idle worker that reads a line written in its future waits for it
//                       (not_before). Other
//                       workers see a worker's memory as it was where it yielded, so where it
//                       yields must not repeat with a periodic loop: hence the draw.
//     fine              every atomic operation, fence and lock is a scheduling point (yields
//                       even with nothing to pay): slow, for exploring interleavings.
//   spin_pause() and yield_now() always add cost, so a polling loop advances the clock (a
//   loop of bare this_actor::yield() never would).
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <source_location>
#include <vector>

#include <simgrid/forward.h>

#include "date_index.hpp"
#include "models/rng.hpp"
#include "schedule.hpp"

namespace twinsched::sim_detail {

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
    std::array<std::uint64_t, words> w = w_;  // branch-free: a write that finds the line shared asks it
    if (core >= 0) w[unsigned(core) / 64] &= ~(std::uint64_t(1) << (unsigned(core) % 64));
    std::uint64_t any = 0;
    for (const std::uint64_t x : w) any |= x;
    return any != 0;
  }

 private:
  static constexpr unsigned words = max_cores / 64;
  std::array<std::uint64_t, words> w_{};
};

/// The coherence state of the cache line an atomic object stands for.
struct line_state {
  std::int32_t writer = -1;  ///< core that last wrote it; -1: not written inside the run yet
  /// No core but the writer holds a copy (sharers is {writer}, or empty with writer -1): most
  /// writes find their own core's line so, and then need no look at the set.
  bool alone = true;
  core_set sharers;          ///< cores holding a valid copy
  double free_at = 0;        ///< simulated ns until which a transfer keeps the line busy
  double written_at = 0;     ///< the writer's local time at its last write (not_before)
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
  bool untimed = false;      ///< blocked in a parker with no timeout: only an unpark frees it
  bool finished = false;     ///< its function returned
  std::uint64_t ops = 0;     ///< platform operations so far: the schedule's preemption points
  double yield_at = 0;       ///< coarse mode: pending charge at which it next yields (next_yield_at)
  unsigned locks_held = 0;   ///< coarse mode: no yield while > 0 (a critical section runs whole)
  std::uint64_t dither = 0;  ///< seeds the next yield_at (splitmix64 sequence per worker)
  bool idle = false;         ///< spun, yielded or parked since its last turn began (not_before)
  double drain_at = 0;       ///< simulated ns by which its buffered stores are complete (drain)
  bool service = false;      ///< the runtime's service (platform.hpp 18): off the cores, like the driver
  double resumed_s = -1;     ///< SimGrid's clock at its last resume (flush's lookahead)
  std::uint32_t wake_id = 0;  ///< its index in state::wake_at: 0 the driver, then each actor made, in order
  simgrid::s4u::Actor* actor = nullptr;  ///< its S4U actor, once it runs (a hand-off resumes it)
  bool held = false;     ///< suspended by the platform until its wake_at date: SimGrid has no action for it (flush)
  bool released = false;  ///< resumed to make its wait SimGrid's own (release_held)
  double blocked_ns = 0;     ///< time spent blocked in a parker (cpu_ns: platform.hpp 19)
  std::uint64_t wake_draws = 0;  ///< seeds its next wake-up latency (splitmix64 sequence per actor)
};

/// The simulation this process runs now (SimGrid's engine exists once per process; runs follow one another in it).
struct state {
  actor_state* cur = nullptr;
  bool fine = false;
  bool aborting = false;
  /// fine, aborting, or explore's schedule: every point takes point_slow (one test on the hot path).
  bool slow_points = false;
  double quantum = 1000;
  std::uint32_t cores_per_socket = 1;
  double clock_ghz = 1;
  // costs, ns
  double load = 0, store = 0, rmw = 0, fence = 0, same = 0, cross = 0, per_kib = 0, handoff = 0, contended_unlock = 0,
         park = 0, unpark = 0, wake = 0, spin = 0, yield = 0, burn_call = 0;
  double block_cpu = 0;  ///< machine_model::block_cpu: CPU time inside a park that blocked
  /// The runtime's own work per runtime_op (models/platform.hpp contract 15), indexed by it:
  /// message, turn, envelope, mailbox_push, mailbox_pop.
  std::array<double, 5> runtime{};
  /// Contract 11's queue_op per queue_kind: deque, locked.
  std::array<double, 2> queue_op{};
  /// The machine's wake-up latency spread (machine_model::wake_latency_quantiles); empty: `wake`.
  std::vector<double> wake_quantiles;
  /// A timed park's overshoot (machine_model::timer_late_quantiles); empty: as any wake-up.
  std::vector<double> timer_late_quantiles;
  std::uint64_t hash = 0xcbf29ce484222325ull;  ///< event hash: every yield, block, wake, trace event
  std::uint64_t flushes = 0, blocks = 0, contended_locks = 0;
  std::uint64_t points = 0;  ///< platform operations of all workers: "scheduling point #n" in reports
  schedule_perturbation* schedule = nullptr;  ///< explore: preempts workers at points (schedule.hpp)
  // The all-parked check: when every live worker waits in a parker with no timeout, nothing
  // can ever wake one (only workers unpark), so the run is stuck (a lost wake-up, or work
  // nobody will take). Each worker's `untimed` flag says whether it waits so; whenever one
  // starts to, `on_maybe_all_parked` (sim_platform) scans the workers' flags (a scan, not a
  // counter: flags are set and cleared on several paths, and a count drifted) and fails
  // the run on the spot if every live one is set.
  unsigned live_workers = 0;
  /// Services (platform.hpp 18) alive and not parked without a timeout: one waiting for a
  /// timer will wake, and deliver, so the run is not stuck while it does.
  unsigned services_awake = 0;
  bool driver_waiting = false;  ///< every initial worker is launched (the driver joins or parks)
  void (*on_maybe_all_parked)() = nullptr;
  // A budget of platform operations (sim_config::max_points; 0: none): a livelock spends
  // them without the run ending, and would otherwise run to the simulated time limit at
  // the speed of the simulation. `on_points_spent` (sim_platform) fails the run.
  std::uint64_t max_points = 0;
  void (*on_points_spent)() = nullptr;
  // The lookahead (flush, cost_model.cpp): a flush that SimGrid would answer by resuming the
  // same worker at once, with nothing run in between, moves the clock itself.
  bool lookahead = true;
  double limit_s = 0;           ///< the run's simulated time limit (run_until's date), or the heartbeat's first wake
  bool shared_cores = false;    ///< a core has had two workers: their work ends when SimGrid's sharing says
  /// By wake_id: when the actor waiting on a dated sleep or timed wait wakes by itself, or
  /// +inf (running, or waiting for nothing dated). An actor whose date has come is runnable
  /// now, and keeps its date until it resumes.
  std::vector<double> wake_at = std::vector<double>(1, no_wake);
  static constexpr double no_wake = 1e300;
  date_index dates;  ///< wake_at's dates (no_wake left out), by time bucket (clear_of_ties)
  /// The lookahead's scan of wake_at is skipped this many more times: after a run of scans
  /// that found another wait due first, it looks less often; a skipped look is a simcall,
  /// which is always right (cost_model.cpp).
  std::uint32_t lookahead_rest = 0;
  std::uint32_t lookahead_misses = 0;  ///< scans in a row that found another wait due first
  /// Dated waits begun since SimGrid last solved (moved its clock): it dates their actions
  /// from its clock at the solve, so the lookahead must not move the clock before one.
  std::uint64_t unsolved_waits = 0;
  /// SimGrid's clock when an actor last made itself or another runnable at once (a notify,
  /// an actor made or ended, a yield, a simcall that returns at once): an actor that resumed
  /// no later may not have seen it run yet.
  double made_runnable_s = -1;
  std::uint64_t skipped = 0;    ///< flushes the lookahead answered without SimGrid
  std::uint64_t hand_offs = 0;  ///< flushes that resumed the worker due next without SimGrid's solve
  std::uint64_t holds = 0;      ///< flushes that suspended their worker without a SimGrid action
  /// By wake_id: the actor (the driver's entry is set when it runs).
  std::vector<actor_state*> actors = std::vector<actor_state*>(1, nullptr);
  unsigned held = 0;            ///< actors with `held` set
  /// Hand-offs less three per released worker, from hold_grace and again after each rest
  /// (cost_model.cpp, release): below 0, no worker is held for hold_rest flushes, 64 << hold_backoff.
  static constexpr int hold_grace = 48;
  int hold_credit = hold_grace;
  std::uint32_t hold_rest = 0, hold_backoff = 0;
  /// Counts every time an actor runs or begins a wait: a released worker begins its wait in
  /// SimGrid once a round passes without it moving (cost_model.cpp, suspend_held).
  std::uint64_t runs = 0;
  void (*on_clock_moved)() = nullptr;  ///< the clock moved without SimGrid's solve (progress reports)
};
extern state g;

/// Enters an actor in wake_at and gives it its wake_id.
inline void enter(actor_state* a) {
  a->wake_id = std::uint32_t(g.wake_at.size());
  g.wake_at.push_back(state::no_wake);
  g.actors.push_back(a);
}
/// An actor is about to make another runnable, or itself runnable at once after a simcall, or
/// to wait in SimGrid, at this simulated time: the lookahead's rule (`state`), and every held
/// worker's wait becomes SimGrid's own first (release_held).
void made_runnable();
/// Makes every held worker's wait SimGrid's own, as if it had slept there all along.
void release_held();
/// Sets an actor's entry in wake_at (no_wake: none), and in state::dates.
inline void set_wake(std::uint32_t wake_id, double date) {
  double& w = g.wake_at[wake_id];
  if (w != state::no_wake) g.dates.remove(w);
  if (date != state::no_wake) g.dates.add(date);
  w = date;
}
/// The running actor is about to wait until `date` (simulated s) at the latest: the lookahead
/// must not overtake it. resume() clears it.
inline void waits_until(actor_state* me, double date) {
  set_wake(me->wake_id, date);
  ++g.unsolved_waits;
  ++g.runs;
}
/// The running actor sleeps `ns` simulated ns (SimGrid's sleep_for), its wake entered for the
/// lookahead (out of line).
void sleep_ns(actor_state* me, double ns);
/// After every simcall: `me` runs again; restores its identity (g.cur), reads the clock into
/// its base_ns and folds the resume into the event hash (out of line).
void resume(actor_state* me);
/// Pays the running actor's pending charge with one simcall and resumes (out of line).
void flush();
/// Blocks the running actor forever (after an abort); never returns to models/ code.
[[noreturn]] void halt();

inline void mix(std::uint64_t x) { g.hash = splitmix64(g.hash ^ x); }

/// Coarse mode: whether the worker's pending charge calls for a yield (none inside a critical
/// section, unless it has run 64 quanta).
inline bool yield_due(const actor_state* me) {
  return me->pending_ns >= me->yield_at && (me->locks_held == 0 || me->pending_ns >= 64 * g.quantum);
}

/// point()'s rarer paths, out of line: the operation budget spent, explore's schedule, fine
/// interleaving, an aborted run. Called with the point counted, the worker's operation not yet.
void point_slow(actor_state* me, const std::source_location& at);

/// A scheduling point: in fine mode always, in coarse mode once yield_at is pending and no
/// lock is held, and wherever the schedule preempts the worker (`at`: the operation's source line).
/// Nearly every modeled operation is one, and nearly every one only counts itself and
/// compares the worker's pending charge: the rest is point_slow's.
inline void point(const std::source_location& at = std::source_location::current()) {
  actor_state* me = g.cur;
  if (me->core < 0) return;  // the driver: setup and collection happen outside simulated time
  if (++g.points == g.max_points || g.slow_points) [[unlikely]] {
    point_slow(me, at);
    return;
  }
  ++me->ops;
  if (yield_due(me)) flush();
}

/// Coarse mode: how much a worker charges before its next yield, drawn uniformly from
/// [quantum / 2, quantum * 3 / 2) (mean: one quantum). A fixed threshold phase-locks with a
/// periodic loop: pingpong's turn cost the same each time, so every turn yielded at the same
/// operation (before its push) and the idle worker, which sees memory only while the busy one
/// is yielded, never saw the pushed actor (few turns changed workers, where on real cores many do).
/// Drawn from a per-worker splitmix64 sequence: deterministic, like everything here.
inline void next_yield_at(actor_state* me) {
  me->dither = splitmix64(me->dither);
  me->yield_at = g.quantum * (0.5 + double(me->dither >> 11) * 0x1.0p-53);
}

/// The all-parked check, after any change to who waits (see `state`).
inline void check_all_parked() {
  if (g.driver_waiting && g.live_workers > 0 && g.on_maybe_all_parked && !g.aborting) g.on_maybe_all_parked();
}

inline double local_ns(const actor_state* me) { return me->base_ns + me->pending_ns; }

/// Workers run up to 1.5 quanta ahead of the clock, each on its own, and see each other's
/// memory as it stood where they last yielded; so a worker can read a value that, by the
/// writer's clock, was written after its own "now" plus the transfer. An idle worker (one
/// that spun, yielded or parked since its last turn began) was polling for that value: on
/// real cores it would have got it only then, so its clock moves there. A busy worker's
/// clock does not (it would have been doing its own work meanwhile; moving it would make a
/// quantum's skew a delay on every line it reads from another core). Without this, an idle
/// worker took work before it was pushed: pingpong on 2 dispatchers (distribution) was
/// simulated too fast, and a worker reached a lock "inside" a critical section whose result
/// it had already seen (sharing: many times more contended locks than real cores made futex
/// calls).
inline void not_before(actor_state* me, double ready_ns) {
  if (!me->idle) return;
  if (const double now = local_ns(me); ready_ns > now) me->pending_ns += ready_ns - now;
}
inline double transfer(int from, int to) {
  return std::uint32_t(from) / g.cores_per_socket == std::uint32_t(to) / g.cores_per_socket ? g.same : g.cross;
}

/// A read of line `l` by the running worker.
inline void read(line_state& l) {
  actor_state* me = g.cur;
  if (me->core < 0) return;
  double c = g.load, ready = 0;
  if (l.writer >= 0 && l.writer != me->core && !l.sharers.has(me->core)) {
    const double t = transfer(l.writer, me->core);
    c += t;
    ready = l.written_at + t;
    l.sharers.add(me->core);
    l.alone = false;
  }
  me->pending_ns += c;
  not_before(me, ready);
}

/// The running worker's stores still draining from its store buffer complete by
/// `drain_at`: a locked operation (RMW, lock, seq_cst store) or a fence waits for them.
inline void drain(actor_state* me) {
  if (const double now = local_ns(me); me->drain_at > now) me->pending_ns += me->drain_at - now;
}

/// A write (store or RMW costing `op`) of line `l` by the running worker: takes the line
/// exclusively, waiting while another transfer of it is in flight. A `buffered` write (a
/// plain store: release or relaxed, x86's mov) retires into the store buffer: the worker
/// pays `op` and goes on, the line's transfer completes in the background (stores to
/// different lines overlap), and the value is visible from then on. A locked write waits
/// for the buffer to drain first.
inline void write(line_state& l, double op, bool buffered = false) {
  actor_state* me = g.cur;
  if (me->core < 0) {
    l.writer = -1;
    l.sharers.clear();
    l.alone = true;
    return;
  }
  if (!buffered) drain(me);
  double c = op, ready = 0, visible = 0;
  const bool mine = l.writer == me->core && l.alone;  // held by this core alone: nothing to move
  const bool remote = !mine && ((l.writer >= 0 && l.writer != me->core) || l.sharers.any_but(me->core));
  if (remote) {
    double t = l.writer >= 0 && l.writer != me->core ? transfer(l.writer, me->core) : g.same;
    double now = local_ns(me);
    double start = l.free_at > now ? l.free_at : now;
    l.free_at = start + t;
    if (buffered) {
      visible = start + t;
      if (visible > me->drain_at) me->drain_at = visible;
    } else {
      c += (start - now) + t;
      if (l.writer >= 0 && l.writer != me->core) ready = l.written_at + t;
    }
  }
  me->pending_ns += c;
  not_before(me, ready);  // 0 for a buffered store: it waits for nothing
  if (!mine) {
    l.writer = me->core;
    l.sharers.only(me->core);
    l.alone = true;
  }
  l.written_at = std::max(local_ns(me), visible);
}

}  // namespace twinsched::sim_detail
