// The cost model's out-of-line parts: the simulation's state, paying pending charges with one simcall (or, where
// SimGrid would only hand the worker its own time back, none), resuming after one.
#include "cost_model.hpp"

#include <algorithm>
#include <bit>

#include <simgrid/s4u.hpp>

#include "engine_access.hpp"

namespace sg = simgrid::s4u;

namespace twinsched::sim_detail {

state g;

void made_runnable() { g.made_runnable_s = engine_access::clock(); }

void resume(actor_state* me) {
  g.cur = me;
  double clk = sg::Engine::get_clock();
  me->base_ns = clk * 1e9;
  me->resumed_s = clk;
  g.wake_at[me->wake_id] = state::no_wake;
  mix((std::uint64_t(std::uint32_t(me->worker + 1)) << 40) ^ std::bit_cast<std::uint64_t>(clk));
}

namespace {

// The lookahead. A worker on a core of its own pays `p` ns with sleep_for: SimGrid makes a
// sleep action dated now + max(p, its precision), runs every other actor that is runnable
// now, then moves its clock to the earliest date among its actions (now + (date - now), in
// these doubles), ends every action dated within its precision of it, and resumes their
// actors. When no other actor is runnable now and every other dated wait ends past that
// precision of the new clock, all SimGrid does is move its clock and resume this worker;
// lookahead() says so, and flush() then sets the clock as SimGrid would have, without the
// simcall (most flushes of a run where one worker is busy and the others wait: pingpong, an
// open loop at light load). Where it cannot tell, the flush goes to SimGrid: a run is the same
// either way, bit for bit (tests/sim/lookahead_test.cpp compares runs with it and without).
// What it must know, this platform records:
//   - Dated waits: every sleep and timed wait of an actor is entered in g.wake_at with its
//     date until the actor resumes, so an actor whose date came with this worker's (ended in
//     the same step, not run yet) holds the lookahead back too. The scan over them is O(actors),
//     and where every worker is busy it almost always finds one due first: then it rests for
//     a doubling number of flushes (a flush without the look is a simcall, never wrong).
//   - Actors runnable at once: only this platform's own simcalls make one without a clock
//     move: a notify, an actor made or ended, a yield, and every simcall that returns at once
//     (making or taking the S4U mutex and condition variable of a blocking lock or parker),
//     which leaves its caller runnable while the others run. made_runnable() stamps the clock
//     before each (a new simcall of that kind needs one too: the test above finds one that
//     lacks it), and a worker that resumed at or before the stamp asks SimGrid. Anything that
//     became runnable before its resume has run since (SimGrid runs every actor runnable at a
//     time before it moves the clock).
//   - Actions not yet solved: SimGrid dates a sleep or timed wait from its clock when it
//     next solves, not when the actor began it (its CPU model's lazy update), so no clock
//     move while one begun by another actor waits for that solve (g.unsolved_waits, zeroed
//     by sim_platform at each of SimGrid's time advances).
//   - Work on a shared core (execute) ends when SimGrid's sharing says: no lookahead in a
//     run that has had one. This platform sets no kernel timer.
//   - The run's time limit (run_until's date) must lie beyond the new clock, with the margin
//     SimGrid's main loop uses to call the limit reached.
constexpr double precision_s = 1e-9;  // SimGrid's surf/precision, left at its default

/// The clock SimGrid would resume the running worker at after sleep_for(p ns), or -1 if it
/// might do anything else first.
double lookahead(const actor_state* me, double p) {
  if (g.shared_cores || g.unsolved_waits || g.made_runnable_s >= me->resumed_s) return -1;
  const double now = engine_access::clock();
  const double date = now + std::max(p * 1e-9, precision_s);  // the sleep action's date
  const double next = now + (date - now);                     // solve(): now_ += time_delta
  if (!(next + 2e-5 < g.limit_s)) return -1;                   // run_until's margin is 1e-5
  if (g.lookahead_rest > 0) {
    --g.lookahead_rest;
    return -1;
  }
  double earliest = state::no_wake;
  for (const double w : g.wake_at) earliest = w < earliest ? w : earliest;
  if (!(earliest > next + 2 * precision_s)) {
    g.lookahead_misses = std::min(g.lookahead_misses + 1, 10u);
    g.lookahead_rest = (1u << g.lookahead_misses) - 1;  // 1, 3, 7, ... 1023 flushes without a look
    return -1;
  }
  g.lookahead_misses = 0;
  return next;
}

}  // namespace

void sleep_ns(actor_state* me, double ns) {
  waits_until(me, engine_access::clock() + std::max(ns * 1e-9, precision_s));  // the date SimGrid gives it
  sg::this_actor::sleep_for(ns * 1e-9);
}

void flush() {
  actor_state* me = g.cur;
  if (g.aborting) halt();
  double p = me->pending_ns;
  me->pending_ns = 0;
  next_yield_at(me);
  ++g.flushes;
  if (p > 0) {
    if (me->shared_core) {
      sg::this_actor::execute(p * g.clock_ghz);  // cycles at clock_ghz: shares the core
    } else if (const double next = g.lookahead ? lookahead(me, p) : -1; next >= 0) {
      engine_access::set_clock(next);
      ++g.skipped;
    } else {
      sleep_ns(me, p);  // the core is ours: same time as execute, cheaper
    }
  } else {
    made_runnable();  // a yield: this worker runs again at the same time, after the others
    sg::this_actor::yield();
  }
  resume(me);
  if (g.aborting) halt();
}

void halt() {
  // Never return into models/ code: the run is over. Everyone blocked => the engine stops.
  for (;;) sg::this_actor::suspend();
}

}  // namespace twinsched::sim_detail
