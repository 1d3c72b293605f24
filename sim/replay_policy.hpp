// Replay: a policy that wraps the recorded run's policy and makes each worker run the actors its recorded turns ran.
//
// Overview
//   A trace lists, per worker, the turns it ran (run_begin events, in order). `replay` runs
//   the trace's scenario in the simulator with the recorded policy wrapped in this one. Each
//   worker has a script: the actor ids of its recorded turns, read lazily from the trace
//   (one decoded block per worker in memory). Three modes, in this order, never back:
//     match   the inner policy decides; each pop is compared with the script. While they
//             agree (always, for a simulated trace replayed on its own machine model) the
//             wrapper adds no platform operation, so timing and every event are as recorded.
//     forced  from the first disagreement on: a worker takes its next scripted actor. Every
//             other actor the inner policy hands it goes to `held`, a pool keyed by actor id,
//             where the worker whose script names it will find it. A worker whose scripted
//             actor is not runnable yet waits (returns no work; its idle strategy runs).
//     free    once every worker's script has ended, nothing more is forced: every worker
//             takes from `held` (lowest id first), then from the inner policy, under the
//             scenario's seed. (A worker whose own script ends first waits for the others:
//             the recording had it run nothing more either.)
//   What is forced is which worker runs which actor in which order, and how many messages
//   each turn processes (run_end records it; worker.hpp's turn_burst hook applies it). Steals, donations and
//   migrations are the inner policy's own work under that order (its pops and hooks still
//   run), so a replay's steals are those the forced order leads to.
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
// Concurrency: none of this state is shared through platform atomics. It relies on the
//   simulator's guarantee (sim_platform.hpp, invariants) that exactly one S4U actor runs at
//   a time and switches only inside simcalls, so plain fields are consistent between two
//   platform operations; after each one (an inner pop, a wake-up) everything is re-read. It is a simulator-only
//   instrument, like FoundationDB's simulation-only code; it is never compiled for threads.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/actor.hpp"
#include "models/config.hpp"
#include "models/parking.hpp"
#include "models/policy/policy.hpp"
#include "models/run_result.hpp"
#include "replay_script.hpp"
#include "sim_platform.hpp"

namespace twinsched {

// The wrapper derives from the recorded policy: every hook it does not change (on_spawn, push,
// add_stats, after_message, on_idle, slots, park_limit_ns) is the inner policy's own, with
// its capabilities; it replaces pop, has_work, queued, describe and try_retire, and adds
// turn_burst (forces_turns).
template <class Inner>
class replay_policy : public Inner {
  using P = sim_platform;
  using cell = actor_cell<P>;

 public:
  static constexpr const char* name = Inner::name;
  /// The inner policy's capabilities, plus forcing each turn's length (policy.hpp).
  static constexpr policy_caps caps{.observes_work = Inner::caps.observes_work,
                                    .scales_workers = Inner::caps.scales_workers,
                                    .forces_turns = true};

  replay_policy(const policy_setup<P>& s, replay_script& script)
      : Inner(s), park_(s.park), script_(script), slots_(slot_count(s.config)), initial_(s.config.workers),
        burst_(s.config.burst), state_(slots_), out_of_order_(slots_) {}



  cell* pop(unsigned w, worker_stats& st) {
    state_[w].started = true;
    state_[w].retired = false;  // adaptive reuses a retired worker's slot for a new thread
    stop_waiting(w);  // a worker inside pop is never counted as waiting
    if (mode_ == mode::match) {
      cell* a = Inner::pop(w, st);  // may yield to other workers: re-read every field after it
      if (!a) return nullptr;
      if (mode_ == mode::match) {
        const recorded_turn* want = script_.peek(w);
        if (want && want->actor == a->id()) return take(w, a);
        diverge(w, want, *a);
      }
      hold(w, a);
    }
    return mode_ == mode::forced ? forced_pop(w, st) : free_pop(w, st);
  }

  bool has_work(unsigned w) const {
    if (mode_ == mode::match) return Inner::has_work(w);
    if (mode_ == mode::free) return !held_.empty() || Inner::has_work(w);
    const recorded_turn* want = script_.peek(w);
    if (!want) return earliest() == slots_ || Inner::has_work(w);
    return ((earliest() == w || out_of_order_ == w) && held_.count(want->actor)) || Inner::has_work(w);
  }

  /// The turn just popped processes as many messages as its recording did (worker.hpp).
  std::uint32_t turn_burst(unsigned w) const { return state_[w].limit ? state_[w].limit : burst_; }

  std::size_t queued() const { return Inner::queued() + held_.size(); }
  void describe(std::string& out) const {
    Inner::describe(out);
    out += "  replay: " + std::to_string(held_.size()) + " actors held for their recorded turns\n";
  }

  /// scales_workers (when the inner policy has it): a waiting worker must not retire.
  bool try_retire(policy_port<P>& port)
    requires(Inner::caps.scales_workers)
  {
    // a worker that waits for a scripted actor must not retire: it would never run it
    if (mode_ == mode::forced && state_[port.index()].waiting) return false;
    bool r = Inner::try_retire(port);
    if (r) {
      state_[port.index()].retired = true;
      stop_waiting(port.index());
    }
    return r;
  }

 private:
  static unsigned slot_count(const scheduler_config& c) {
    if constexpr (Inner::caps.scales_workers) return Inner::slots(c);
    else return c.workers;
  }

  enum class mode : std::uint8_t { match, forced, free };
  struct worker_state {
    bool started = false, retired = false, waiting = false;
    std::uint32_t limit = 0;  // the turn just taken: its recorded messages (0: burst)
  };

  cell* take(unsigned w, cell* a) {
    state_[w].limit = script_.peek(w)->messages;
    script_.advance(w);
    ++script_.log().followed;
    if (mode_ == mode::forced) nudge(w);
    return a;
  }

  /// Wakes the worker whose turn is next if it waits and its actor is held.
  void nudge(unsigned from) {
    const unsigned e = earliest();
    if (e == from || e == slots_ || !state_[e].waiting) return;
    const recorded_turn* want = script_.peek(e);
    if (want && held_.count(want->actor)) park_.wake(e, int(from));
  }

  /// The present worker whose next recorded turn is the earliest (ties: lowest index),
  /// among those whose next actor is held if `held_only`; slots_ if there is none.
  unsigned earliest(bool held_only = false) const {
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

  cell* free_turn(unsigned w, cell* a) {
    state_[w].limit = 0;
    ++script_.log().free_turns;
    return a;
  }

  // Every platform operation below (inner pops, wake-ups) may let other workers run and
  // change mode_, held_ and the scripts: nothing read before one is trusted after it.
  cell* forced_pop(unsigned w, worker_stats& st) {
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

  cell* free_pop(unsigned w, worker_stats& st) {
    stop_waiting(w);
    if (!held_.empty()) {
      auto it = held_.begin();  // lowest actor id: deterministic
      cell* a = it->second;
      held_.erase(it);
      return free_turn(w, a);
    }
    cell* a = Inner::pop(w, st);
    return a ? free_turn(w, a) : nullptr;
  }

  /// Keeps `a` for the worker whose script names it; wakes that worker if its turn is next.
  void hold(unsigned w, cell* a) {
    held_.emplace(a->id(), a);
    if (mode_ == mode::forced) nudge(w);
  }

  void stop_waiting(unsigned w) {
    if (state_[w].waiting) {
      state_[w].waiting = false;
      --waiting_;
    }
  }

  /// A worker that runs or is about to: every worker the run starts with (its thread may
  /// not have reached its first pop yet), and any other slot once started, until it retires.
  bool present(unsigned v) const { return (v < initial_ || state_[v].started) && !state_[v].retired; }

  unsigned active() const {
    unsigned n = 0;
    for (unsigned v = 0; v < slots_; ++v) n += present(v);
    return n;
  }

  /// The stall rule: worker v's next recorded turn cannot apply; skip it. `w` is the caller.
  void skip(unsigned v, unsigned w) {
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

  void diverge(unsigned w, const recorded_turn* want, const cell& got) {
    replay_log& log = script_.log();
    log.diverged = true;
    const std::string turn = "worker " + std::to_string(w) + "'s recorded turn #" + std::to_string(script_.next_ordinal(w));
    log.notes.push_back("first divergence: " +
                        (want ? turn + " ran actor " + std::to_string(want->actor) + " at " +
                                    std::to_string(want->time_ns) + " ns"
                              : "worker " + std::to_string(w) + " has no recorded turn left") +
                        "; at " + std::to_string(script_.plat().now_ns()) + " ns simulated the policy chose actor " +
                        std::to_string(got.id()) + ". Forcing the recorded decisions from here.");
    mode_ = mode::forced;
    wake_others(w);  // a worker parked in match mode must come back to be counted as waiting
  }

  void run_out(unsigned w) {
    replay_log& log = script_.log();
    log.ran_out = true;
    log.notes.push_back("the recorded decisions ran out at " + std::to_string(script_.plat().now_ns()) +
                        " ns simulated (worker " + std::to_string(w) +
                        " noticed); the rest of the run follows the scenario's seed");
    mode_ = mode::free;
    wake_others(w);
  }

  void wake_others(unsigned w) {
    for (unsigned v = 0; v < slots_; ++v)
      if (v != w) park_.wake(v, int(w));
  }

  parking<P>& park_;
  replay_script& script_;
  unsigned slots_, initial_;
  std::uint32_t burst_;
  std::vector<worker_state> state_;
  std::map<std::uint32_t, cell*> held_;  // by actor id: deterministic order
  unsigned waiting_ = 0;
  mode mode_ = mode::match;
  unsigned out_of_order_ = 0;  // a worker allowed its next turn out of the recorded order (slots_: none)
};

}  // namespace twinsched
