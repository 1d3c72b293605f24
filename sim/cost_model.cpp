// The cost model's out-of-line parts: the simulation's state, paying pending charges with one simcall (or, where
// SimGrid would only move its clock and resume one worker, the same without its solve), resuming after one.
#include "cost_model.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <simgrid/s4u.hpp>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine_access.hpp"

namespace sg = simgrid::s4u;

namespace twinsched::sim_detail {

state g;

void resume(actor_state* me) {
  g.cur = me;
  ++g.runs;
  double clk = sg::Engine::get_clock();
  me->base_ns = clk * 1e9;
  me->resumed_s = clk;
  set_wake(me->wake_id, state::no_wake);
  mix((std::uint64_t(std::uint32_t(me->worker + 1)) << 40) ^ std::bit_cast<std::uint64_t>(clk));
}

namespace {

// The lookahead. A worker on a core of its own pays `p` ns with sleep_for: SimGrid makes a
// sleep action dated now + max(p, its precision), runs every other actor that is runnable
// now, then moves its clock to the earliest date among its actions (now + (date - now), in
// these doubles), ends every action dated within its precision of it, and resumes their
// actors. When no other actor is runnable now and that earliest date is alone (no other
// within the precision), all SimGrid does is move its clock and resume one actor; lookahead()
// says which, and flush() does the same without SimGrid's solve:
//   - skip: this worker is due first; flush sets the clock and goes on, no simcall (a run
//     where one worker is busy and the others wait: pingpong, an open loop at light load);
//   - hand_off: a held worker is due first; flush sets the clock to its date, and one simcall
//     resumes it and suspends this worker, held in turn (every worker busy: forward, fib);
//   - hold: one of SimGrid's own waiters is due first; this worker suspends, held, and
//     SimGrid's solve resumes that one (a suspend is cheaper than a sleep action).
// A held worker is one SimGrid has no action for: its date is in g.wake_at alone, and only a
// hand-off or a release resumes it. Workers are held only while one actor runs and no other
// is runnable (every hold and hand-off leaves exactly one runnable), and SimGrid must never
// pass or tie a held date (it would move its clock past it, or end it with another in an
// order of its own). So that one actor releases them all (release_held) before it makes
// another runnable (made_runnable, which a notify, a new or ending actor, a yield, a blocking
// lock or park call first) or halts; and before it sleeps in SimGrid, unless SimGrid's next
// solve will resume one actor alone, due before every held worker, and the sleep's date ties
// no held one (release_unless_clear: then they stay held). A released worker begins its
// sleep to the same date (exact in doubles: date - c is, for every clock c between date / 2
// and date, hence the rule date <= 2 * now), and begins it last among the waits SimGrid
// dates before it next solves, after a round in which no other actor ran: SimGrid ends equal
// dates of one solve in the reverse order they began, and this wait, had it been SimGrid's
// all along, would have been dated first. A held worker's date keeps more than the precision
// from every other date (checked when it is held; a wait SimGrid dates later that comes that
// near releases it first), so no solve would have ended it with another. A release costs a
// few simcalls more than the sleep it replaces: where many cores' dates tie often, holding
// backs off (release). Where it cannot tell, the flush goes to SimGrid: a run is the same
// either way, bit for bit (tests/sim/lookahead_test.cpp compares runs with it and without).
// What it must know, this platform records:
//   - Dated waits: every sleep and timed wait of an actor (and every held worker's) is entered
//     in g.wake_at with its date until the actor resumes, so an actor whose date came with
//     this worker's (ended in the same step, not run yet) holds the lookahead back too. The
//     scan over them is O(actors); where it finds no clear next one it rests for a doubling
//     number of flushes (a flush without the look is a simcall, never wrong).
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
//     by sim_platform at each of SimGrid's time advances; a released wait counts from its release).
//   - Work on a shared core (execute) ends when SimGrid's sharing says: no lookahead in a
//     run that has had one. This platform sets no kernel timer.
//   - The run's time limit (run_until's date) must lie beyond the new clock, with the margin
//     SimGrid's main loop uses to call the limit reached.
constexpr double precision_s = 1e-9;  // SimGrid's surf/precision, left at its default

/// The date SimGrid gives a sleep of `ns` begun now.
double sleep_date(double ns) { return engine_access::clock() + std::max(ns * 1e-9, precision_s); }

/// The other actors' dated waits as a sleep to one date sees them (this worker's own entry is
/// no_wake while it runs).
struct dated_waits {
  double first = state::no_wake, second = state::no_wake;  ///< the two earliest dates
  double gap = state::no_wake;                             ///< the nearest date's distance to it
};

// Branch-free minima in independent lanes (SSE2's two doubles a register, twice): an element's
// updates wait on its lane's last, not on the element before (a chain of min latencies), and
// the lanes merge at the end. min/max_pd compute x < y ? x : y as std::min does.
dated_waits scan(double date) {
  const double* w = g.wake_at.data();
  const std::size_t n = g.wake_at.size();
  dated_waits d;
  // Merges a lane's two earliest dates and nearest distance into d: the two earliest of both.
  const auto merge = [&d](double first, double second, double gap) {
    d.second = std::min(std::max(d.first, first), std::min(d.second, second));
    d.first = std::min(d.first, first);
    d.gap = std::min(d.gap, gap);
  };
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128d at = _mm_set1_pd(date), abs_mask = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffffLL));
  __m128d f0 = _mm_set1_pd(state::no_wake), f1 = f0, s0 = f0, s1 = f0, g0 = f0, g1 = f0;
  for (; i + 4 <= n; i += 4) {
    const __m128d x0 = _mm_loadu_pd(w + i), x1 = _mm_loadu_pd(w + i + 2);
    g0 = _mm_min_pd(g0, _mm_and_pd(_mm_sub_pd(x0, at), abs_mask));
    g1 = _mm_min_pd(g1, _mm_and_pd(_mm_sub_pd(x1, at), abs_mask));
    s0 = _mm_min_pd(s0, _mm_max_pd(f0, x0));
    s1 = _mm_min_pd(s1, _mm_max_pd(f1, x1));
    f0 = _mm_min_pd(f0, x0);
    f1 = _mm_min_pd(f1, x1);
  }
  alignas(16) double f[4], s2[4], g2[4];
  _mm_store_pd(f, f0);
  _mm_store_pd(f + 2, f1);
  _mm_store_pd(s2, s0);
  _mm_store_pd(s2 + 2, s1);
  _mm_store_pd(g2, g0);
  _mm_store_pd(g2 + 2, g1);
  for (int l = 0; l < 4; ++l) merge(f[l], s2[l], g2[l]);
#endif
  for (; i < n; ++i) merge(w[i], state::no_wake, std::abs(w[i] - date));  // an element is a lane of one
  return d;
}

/// A charge's sleep ends more than twice SimGrid's precision from every other dated wait, so
/// that two cores' scheduling points do not share a date: the model orders them, not the order
/// SimGrid's heap happens to end equal dates in. Ending within that of others, it is made to
/// end 3 precisions after the latest of them, and so again, up to 8 times (24 ns). Where more
/// than 4 lie that near (a crowd of cores waking together), or a 9th move would be needed, it
/// keeps its date, and SimGrid orders the crowd. Returns the charge, in ns.
double clear_of_ties(double p) {
  static_assert(2 * precision_s <= date_index::reach_s);
  constexpr int most_moves = 8;
  constexpr std::uint32_t crowd = 5;
  const double now = engine_access::clock(), start = sleep_date(p);
  double date = start;
  for (int moves = 0;; ++moves) {
    std::optional<date_index::near> n = g.dates.near_to(date, 2 * precision_s);
    if (!n) {  // a slot near it has held more than it keeps: count them all
      n.emplace();
      for (const double w : g.wake_at) n->consider(w, date, 2 * precision_s);
    }
    if (n->count == 0) break;
    if (n->count >= crowd || moves == most_moves) return p;
    date = n->latest + 3 * precision_s;
  }
  return date == start ? p : (date - now) * 1e9;
}

/// What a flush does instead of its simcall (lookahead()).
struct plan {
  enum { simgrid, skip, hand_off, hold } what = simgrid;
  double clock = -1;            ///< skip, hand_off: the clock SimGrid's solve would have set
  double date = -1;             ///< hand_off, hold: the date this worker is held until
  actor_state* next = nullptr;  ///< hand_off: the held worker due next
};

/// Whether SimGrid would, after the running worker's sleep to `date` (no nearer to another
/// dated wait than clear_of_ties leaves it), only move its clock and resume one worker: this
/// one (skip), a held one (hand_off), or one of its own waiters (hold: this worker then needs
/// no action of SimGrid's, being due later).
plan lookahead(actor_state* me, double date) {
  const bool holding = g.hold_rest == 0;  // else holding has cost more than it saved lately (release)
  if (!holding) --g.hold_rest;
  if (g.shared_cores || g.unsolved_waits || g.made_runnable_s >= me->resumed_s) return {};
  const double now = engine_access::clock();
  const double next = now + (date - now);  // solve(): now_ += time_delta
  if (!(next + 2e-5 < g.limit_s)) return {};  // run_until's margin is 1e-5
  if (g.lookahead_rest > 0) {
    --g.lookahead_rest;
    return {};
  }
  const dated_waits d = scan(date);
  if (d.first > next + 2 * precision_s) {
    g.lookahead_misses = 0;
    return {plan::skip, next};
  }
  // Another wait is due first. If it is alone at its date (no other within SimGrid's
  // precision: the solve ends it alone) and not due yet (not ended by the step that resumed
  // this worker, its actor runnable), SimGrid would move the clock there and resume it. This
  // worker, held from here on, must be no nearer than that to any other date (so no solve
  // would have ended it with another), and a release must give SimGrid its date exactly
  // (date - c is exact for every later clock c, as date <= 2 * now).
  const double then = now + (d.first - now);
  if (holding && d.first > now + 2 * precision_s && date > then + 2 * precision_s &&
      d.second > then + 2 * precision_s && d.gap > 2 * precision_s && then + 2e-5 < g.limit_s && date <= 2 * now) {
    g.lookahead_misses = 0;
    // The earliest date is alone: the one entry that holds it.
    const auto at = std::find(g.wake_at.begin(), g.wake_at.end(), d.first) - g.wake_at.begin();
    actor_state* a = g.actors[std::size_t(at)];
    if (a && a->held) return {plan::hand_off, then, date, a};
    return {plan::hold, -1, date};
  }
  // Where scans keep finding no clear next worker, look less often: 1, 3, 7, ... up to 1023
  // flushes without a look after each miss in a row; while workers may be held, only after 8
  // (a miss is then a runnable actor, a timed wait's tie or a release's, and passes).
  g.lookahead_misses = std::min(g.lookahead_misses + 1, holding ? 17u : 10u);
  const std::uint32_t row = holding ? g.lookahead_misses - std::min(g.lookahead_misses, 7u) : g.lookahead_misses;
  g.lookahead_rest = (1u << row) - 1;
  return {};
}

/// Suspends the running worker, held until its date (entered in wake_at), after resuming
/// `next` if given: one simcall, no action. Returns when a hand-off resumes it (the clock at
/// its date) or release_held does (then it waits the rest in SimGrid, as it would have).
void suspend_held(actor_state* me, double date, actor_state* next) {
  set_wake(me->wake_id, date);  // no SimGrid action: not an unsolved wait
  me->held = true;
  ++g.held;
  sg::Actor* self = me->actor;
  if (next) {
    next->held = false;
    --g.held;
    engine_access::hand_off(self, next->actor);
  } else {
    sg::this_actor::suspend();
  }
  if (me->released) {
    me->released = false;
    // SimGrid would have dated this wait before any other it dates at its next solve, so it
    // would end first of those with the same date: it dates waits begun in one step of its
    // clock in the reverse order they began. So this wait begins last: after a round of
    // SimGrid's in which no other actor ran (each that runs counts in g.runs).
    for (std::uint64_t seen = g.runs - 1; seen != g.runs;) {
      seen = g.runs;
      sg::this_actor::yield();
    }
    sg::this_actor::sleep_for(date - engine_access::clock());  // exact: release_held
  }
}

/// Makes held worker `a`'s wait SimGrid's own: resumed now, it begins a sleep to its date before
/// SimGrid solves again (an unsolved wait; suspend_held).
void release(actor_state* a) {
  // A release costs a few simcalls more than the sleep it replaces, a hand-off one less: where
  // more than one worker is released per three hand-offs (ties among many cores' dates), stop
  // holding for a doubling number of flushes. Holding starts again with a grace of 16 releases:
  // from nothing, the first release after a rest would begin the next, longer rest, and a burst
  // of releases (every worker made runnable at the start) would turn holding off for good.
  if ((g.hold_credit -= 3) < 0) {
    g.hold_rest = 64u << std::min(g.hold_backoff++, 10u);
    g.hold_credit = state::hold_grace;
  }
  a->held = false;
  a->released = true;
  --g.held;
  ++g.unsolved_waits;
  a->actor->resume();
  ++g.runs;
}

/// The lone running actor is about to sleep in SimGrid until `date`. Held workers may stay
/// held only if SimGrid's next solve (to the earliest of its own dates, this one included)
/// will resume one actor alone, due before every held worker, and no held worker's date lies
/// within twice SimGrid's precision of `date` (a solve would end the two together). Otherwise
/// all are released.
void release_unless_clear(double date) {
  if (g.held == 0) return;
  const std::size_t n = g.wake_at.size();
  double first = date, second = state::no_wake, held_first = state::no_wake;
  bool tie = false;
  for (std::size_t i = 0; i < n; ++i) {
    const double w = g.wake_at[i];
    if (const actor_state* a = g.actors[i]; a && a->held) {
      held_first = std::min(held_first, w);
      tie = tie || std::abs(w - date) <= 2 * precision_s;
    } else if (w < second) {
      second = std::max(first, w);
      first = std::min(first, w);
    }
  }
  const double now = engine_access::clock();
  if (tie || !(first > now + 2 * precision_s && second > first + 2 * precision_s && held_first > first + 2 * precision_s))
    release_held();
}

}  // namespace

void release_held() {
  if (g.held == 0) return;
  actor_state* me = g.cur;
  for (actor_state* a : g.actors)
    if (a && a->held) release(a);
  g.cur = me;
}

void made_runnable() {
  release_held();
  ++g.runs;
  g.made_runnable_s = engine_access::clock();
}

void sleep_ns(actor_state* me, double ns) {
  const double date = sleep_date(ns);
  release_unless_clear(date);
  waits_until(me, date);
  sg::this_actor::sleep_for(ns * 1e-9);
}

void flush() {
  actor_state* me = g.cur;
  if (g.aborting) halt();
  double p = me->pending_ns;
  me->pending_ns = 0;
  next_yield_at(me);
  ++g.flushes;
  if (p > 0 && me->shared_core) {
    sg::this_actor::execute(p * g.clock_ghz);  // cycles at clock_ghz: shares the core
  } else if (p > 0) {
    p = clear_of_ties(p);
    if (const plan to = g.lookahead ? lookahead(me, sleep_date(p)) : plan{}; to.what == plan::skip) {
      engine_access::set_clock(to.clock);
      ++g.skipped;
      if (g.on_clock_moved) g.on_clock_moved();
    } else if (to.what == plan::hand_off) {
      engine_access::set_clock(to.clock);
      ++g.hand_offs;
      if (++g.hold_credit > 256) {  // holding pays here: forget earlier backoffs
        g.hold_credit = 256;
        g.hold_backoff = 0;
      }
      if (g.on_clock_moved) g.on_clock_moved();
      suspend_held(me, to.date, to.next);
    } else if (to.what == plan::hold) {
      ++g.holds;
      suspend_held(me, to.date, nullptr);
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

void point_slow(actor_state* me, const std::source_location& at) {
  if (g.points == g.max_points) g.on_points_spent();
  const std::uint64_t op = me->ops++;
  if (g.schedule) {
    if (double d = g.schedule->decide(me->worker, op, at.file_name(), at.line()); d > 0) {
      me->pending_ns += d;
      flush();
      return;
    }
  }
  if (g.fine || g.aborting || yield_due(me)) flush();
}

void halt() {
  // Never return into models/ code: the run is over. Everyone blocked => the engine stops.
  release_held();  // they wake at their dates and halt, as they would have
  for (;;) sg::this_actor::suspend();
}

}  // namespace twinsched::sim_detail
