// Replay, forced mode (a decisions-level or simulated trace): which actor each worker runs, started in the recorded order across workers. Part of replay_policy.hpp.
//
// Order across workers (forced mode): turns start in the recorded order of their
//   run_begin times, across all workers: a worker takes its next scripted turn only when it
//   is the earliest pending one (ties: the lower worker). Without this gate workers drift
//   apart in their scripts, an actor runs before the message its recorded turn handled has
//   been sent, and the replay soon stops matching the recording. Turns still run in parallel
//   once started; the gate only orders their starts.
//
// When recorded decisions cannot apply (a real trace under modeled timing: a turn took
//   more or fewer messages than on hardware, so an actor the script names is not runnable
//   at that point) every worker ends up waiting with runnable actors in `held`: a stall.
//   The worker that completes the stall skips the earliest pending turn and says so in the
//   log. Skips are how the replay resynchronizes; their count says how far reality and the
//   model part ways.
//
// Thread starts and retirements are the inner policy's own here (scaling by its own measure
// under modeled timing); a slot it does not start never runs its recorded turns.
#pragma once
#include "replay_policy_decl.hpp"

namespace twinsched {

// Every platform operation below (inner pops, wake-ups) may let other workers run and
// change mode_, held_ and the scripts: nothing read before one is trusted after it.
template <class Inner>
auto replay_policy<Inner>::forced_pop(unsigned w, worker_stats& st) -> cell* {
  for (;;) {
    if (mode_ == mode::free) return free_pop(w, st);
    const recorded_turn* e = script_.peek(w);
    if (!e && earliest() == slots_) {  // no running worker has a recorded turn left
      run_out(w);
      continue;
    }
    // a worker whose own turns are over still drains into held_, then waits for the rest
    if (e && (earliest() == w || out_of_order_ == w)) {
      const std::uint32_t want = e->actor;
      if (auto it = held_.find(want); it != held_.end()) {
        cell* a = it->second;
        held_.erase(it);
        if (out_of_order_ == w) {
          out_of_order_ = slots_;
          ++script_.log().reordered;
        }
        return take(w, a);
      }
    }
    if (cell* a = Inner::pop(w, st)) {  // drain what w can reach into held_
      hold(w, a);
      continue;
    }
    state_[w].waiting = true;
    ++waiting_;
    if (waiting_ < active() || held_.empty()) return nullptr;
    // Every worker waits: a stall. If the earliest pending turn's actor is held, its
    // worker only needs waking. Else, if another worker's next actor is held, that turn
    // goes first, out of the recorded order (recorded times across workers are only as
    // exact as the clocks that took them). Else the earliest turn cannot apply: skip it.
    const unsigned first = earliest();
    if (first == slots_) continue;  // every turn is used up: the loop's top switches to free
    const unsigned ready = earliest(true);
    if (ready == slots_) {
      stop_waiting(w);
      skip(first, w);
      continue;
    }
    if (ready != first) out_of_order_ = ready;
    if (ready != w) {
      park_.wake(ready, int(w));
      return nullptr;
    }
    stop_waiting(w);
  }
}

template <class Inner>
auto replay_policy<Inner>::take(unsigned w, cell* a) -> cell* {
  state_[w].limit = script_.peek(w)->messages;
  script_.advance(w);
  ++script_.log().followed;
  if (mode_ == mode::forced) nudge(w);
  return a;
}

/// Wakes the worker whose turn is next if it waits and its actor is held.
template <class Inner>
void replay_policy<Inner>::nudge(unsigned from) {
  const unsigned e = earliest();
  if (e == from || e == slots_ || !state_[e].waiting) return;
  const recorded_turn* want = script_.peek(e);
  if (want && held_.count(want->actor)) park_.wake(e, int(from));
}

/// The present worker whose next recorded step is the earliest (ties: lowest index),
/// among those whose next actor is held if `held_only`; slots_ if there is none.
template <class Inner>
unsigned replay_policy<Inner>::earliest(bool held_only) const {
  unsigned best = slots_;
  std::uint64_t t = 0;
  for (unsigned v = 0; v < slots_; ++v) {
    if (!present(v)) continue;
    const recorded_turn* e = script_.peek(v);
    if (e && (!held_only || held_.count(e->actor)) && (best == slots_ || e->time_ns < t)) {
      best = v;
      t = e->time_ns;
    }
  }
  return best;
}

/// The stall rule: worker v's next recorded turn cannot apply; skip it. `w` is the caller.
template <class Inner>
void replay_policy<Inner>::skip(unsigned v, unsigned w) {
  const recorded_turn& e = *script_.peek(v);
  const std::uint32_t actor = e.actor;
  const std::uint64_t t = e.time_ns;
  const std::uint64_t turn = script_.advance(v);
  replay_log& log = script_.log();
  if (++log.skipped <= 5)
    log.notes.push_back("skipped worker " + std::to_string(v) + "'s recorded turn #" + std::to_string(turn) +
                        " (actor " + std::to_string(actor) + " at " + std::to_string(t) + " ns): at " +
                        std::to_string(script_.plat().now_ns()) +
                        " ns simulated that actor was not runnable and every worker was waiting");
  nudge(w);
}

}  // namespace twinsched
