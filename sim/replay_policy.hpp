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
// Message-exact mode (a full-level trace of a real run; replay_script::exact): what a turn
//   consumes is forced too, so "followed" means the recorded actor ran on the recorded
//   worker with exactly the recorded messages. Timing cannot decide that: under modeled
//   time messages reach mailboxes in another order. So:
//   1. every message reaching a mailbox the replay controls (an actor it holds, or runs in
//      an exact turn) moves into the inbox (replay_inbox.hpp), keyed by its id: the
//      sending actor and its send count, the same in the recording and the replay;
//   2. a worker takes its next recorded turn as soon as the actor is free (held, or idle:
//      claimed as donation claims, mailbox.hpp) and the actor has consumed, in this replay,
//      exactly the messages it had before that turn in the recording (run_begin's message
//      field), so one actor's turns on different workers keep their recorded order. No
//      cross-worker time gate: recorded clocks of different cores are not exact enough;
//   3. the turn (worker.hpp picks_messages / next_message) takes each recorded id from the
//      inbox, waiting in the turn while it has not been sent yet;
//   4. a worker that waits (for its actor, or inside a turn for a message) polls: it drains
//      the inner policy, its actor's mailbox and the held actors' mailboxes, then spends
//      `poll_ns` of modeled time and yields its core. Why this finishes: the recording is one real execution, so among the
//      waiting workers the one whose next step came first in real time can always take it
//      (what it waits for happened before, in a prefix the replay has run). A trace that is
//      not a real execution (damaged, tampered with, a workload that is not deterministic)
//      stalls instead: every worker waits and nothing moves for `stall_polls` rounds. Then
//      the lowest worker waiting inside a turn ends that turn early (not followed), or if
//      none does, the earliest pending turn is skipped; the run goes on. One stall is not a
//      damaged trace: a turn of no messages (an empty turn: a claimed donation recipient, a
//      mailbox caught mid-push) shares its start with the actor's next turn, so step 2
//      cannot order the two; if the other one took the actor first, the empty turn's worker
//      may wait for an actor that waits on that worker. Such a turn consumes nothing and
//      changes nothing: it is passed (counted followed, and in `passed`) before anything
//      else is given up. Nor is this one: the recording started a worker (adaptive) that the
//      policy, scaling by its own measure under the replay, has not started; from then on
//      waiting workers run that slot's turns, with their recorded messages (`adopted`, not
//      followed: another worker ran them);
//   5. when the recorded turns run out, the inbox goes back to the mailboxes and the run
//      finishes under the scenario's seed (free mode).
//   Which messages an actor consumed is then its recorded set, so its delivery digest equals
//   the recording's footer (cli/replay_command.cpp checks it).
//
// Concurrency: none of this state is shared through platform atomics. It relies on the
//   simulator's guarantee (sim_platform.hpp, invariants) that exactly one S4U actor runs at
//   a time and switches only inside simcalls, so plain fields are consistent between two
//   platform operations; after each one (an inner pop, a wake-up) everything is re-read. It is a simulator-only
//   instrument, like FoundationDB's simulation-only code; it is never compiled for threads.
#pragma once
#include <algorithm>
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
#include "replay_inbox.hpp"
#include "replay_script.hpp"
#include "sim_platform.hpp"

namespace twinsched {

// The wrapper derives from the recorded policy: every hook it does not change (on_spawn, push,
// add_stats, after_message, on_idle, slots, park_limit_ns) is the inner policy's own, with
// its capabilities; it replaces pop, has_work, queued, describe and try_retire, extends
// on_spawn, and adds the hooks of forces_turns.
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

  static constexpr std::uint64_t poll_ns = 500;  ///< exact mode: how long a waiting worker parks
  static constexpr unsigned stall_polls = 4;      ///< exact mode: quiet rounds that make a stall

  replay_policy(const policy_setup<P>& s, replay_script& script)
      : Inner(s), park_(s.park), script_(script), slots_(slot_count(s.config)), initial_(s.config.workers),
        burst_(s.config.burst), exact_(script.exact()), state_(slots_), scratch_(slots_), out_of_order_(slots_) {
    if (exact_) mode_ = mode::forced;  // a real run's turns never match modeled timing: force from the start
  }

  void on_spawn(cell& a, int by) {
    Inner::on_spawn(a, by);
    if (a.id() >= actors_.size()) {
      actors_.resize(std::size_t(a.id()) + 1, nullptr);
      position_.resize(actors_.size(), 0);
    }
    actors_[a.id()] = &a;
  }

  cell* pop(unsigned w, worker_stats& st) {
    state_[w].started = true;
    state_[w].retired = false;  // adaptive reuses a retired worker's slot for a new thread
    stop_waiting(w);  // a worker inside pop is never counted as waiting
    if (exact_ && mode_ == mode::forced) return exact_pop(w, st);
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
    if (exact_ && mode_ == mode::forced) return true;  // exact_pop waits inside for the next turn
    if (mode_ == mode::match) return Inner::has_work(w);
    if (mode_ == mode::free) return !held_.empty() || Inner::has_work(w);
    const recorded_turn* want = script_.peek(w);
    if (!want) return earliest() == slots_ || Inner::has_work(w);
    return ((earliest() == w || out_of_order_ == w) && held_.count(want->actor)) || Inner::has_work(w);
  }

  /// The turn just popped processes as many messages as its recording did (worker.hpp).
  std::uint32_t turn_burst(unsigned w) const { return state_[w].limit ? state_[w].limit : burst_; }

  /// Exact mode: the turn w just took gets its recorded messages from next_message.
  bool picks_messages(unsigned w) const { return state_[w].exact_turn; }

  /// Exact mode, step 3: the turn's next recorded message, waiting for it if it has not
  /// been sent yet; null when the turn has had them all, or on a stall (not followed).
  envelope<P>* next_message(policy_port<P>& port, cell& a) {
    const unsigned w = port.index();
    worker_state& s = state_[w];
    if (s.next >= s.ids.size()) return nullptr;
    const std::uint64_t id = s.ids[s.next];
    for (;;) {  // every mailbox or inner operation may let others run: re-read after each
      if (inbox_.drain(a)) ++progress_;
      if (inbox_.has_for(id, a)) {
        ++s.next;
        ++progress_;
        return inbox_.take(id);
      }
      drain_held();  // a recorded donation: the message was sent to another member
      if (inbox_.has_for(id, a)) continue;
      if (cell* b = Inner::pop(w, scratch_[w])) {
        hold(w, b);
        continue;
      }
      if (!poll(w, true)) {
        s.matched = false;
        return nullptr;
      }
    }
  }

  /// Exact mode: after the turn, before the worker releases the actor.
  void end_turn(policy_port<P>& port, cell& a) {
    const unsigned w = port.index();
    worker_state& s = state_[w];
    if (!s.exact_turn) return;
    s.exact_turn = false;
    if (inbox_.drain(a)) ++progress_;  // the release must find the mailbox empty, or reschedule
    replay_log& log = script_.log();
    if (s.matched && s.next == s.ids.size()) {
      ++(s.adopted ? log.adopted : log.followed);
    } else if (++log.inexact <= 5) {
      log.notes.push_back("worker " + std::to_string(w) + "'s recorded turn #" + std::to_string(s.ordinal) +
                          " (actor " + std::to_string(a.id()) + ") got " + std::to_string(s.next) + " of its " +
                          std::to_string(s.ids.size()) + " recorded messages" +
                          (s.next < s.ids.size() ? ": message " + id_text(s.ids[s.next]) + " never came" : "") +
                          " (every worker waited)");
    }
    ++progress_;
    if (mode_ == mode::free) flush(w);
  }

  std::size_t queued() const { return Inner::queued() + held_.size(); }
  void describe(std::string& out) const {
    Inner::describe(out);
    out += "  replay: " + std::to_string(held_.size()) + " actors held for their recorded turns";
    if (exact_) out += ", " + std::to_string(inbox_.size()) + " messages waiting for their recorded turns";
    out += "\n";
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
    // exact mode: the turn being run, the recorded ids it is to consume, how far it got
    bool exact_turn = false, matched = true, in_turn = false, give_up = false, adopted = false;
    std::vector<std::uint64_t> ids;
    std::size_t next = 0;
    std::uint64_t ordinal = 0;
  };

  static std::string id_text(std::uint64_t id) {
    return std::to_string(id >> 32) + ":" + std::to_string(id & 0xffffffffu);
  }

  std::uint64_t position(std::uint32_t actor) const { return actor < position_.size() ? position_[actor] : 0; }

  /// Step 2's order: a turn starts where the actor's turns taken so far left it. A turn of no
  /// messages (a claimed donation recipient, a mailbox caught mid-push) shares its start
  /// with the actor's next turn and changes nothing, so it may run once that start is reached.
  bool in_position(const recorded_turn& t) const {
    return t.messages == 0 ? t.start <= position(t.actor) : t.start == position(t.actor);
  }

  void advance_position(const recorded_turn& t) {
    if (t.actor < position_.size()) position_[t.actor] = std::max(position_[t.actor], t.start + t.messages);
  }

  /// Exact mode, step 2: w's next recorded turn, once its actor is free and at the recorded
  /// position; else w drains what it can reach and waits (step 4).
  cell* exact_pop(unsigned w, worker_stats& st) {
    for (;;) {
      if (mode_ == mode::free) return free_pop(w, st);
      const recorded_turn* e = script_.peek(w);
      if (!e && earliest() == slots_) {  // no running worker has a recorded turn left
        run_out(w);
        flush(w);
        continue;
      }
      if (e && in_position(*e))
        if (cell* a = free_actor(e->actor)) return exact_take(w, a, w);
      if (adopt_)  // after a stall: turns of slots whose worker never started here
        for (unsigned v = 0; v < slots_; ++v)
          if (const recorded_turn* t = present(v) ? nullptr : script_.peek(v); t && in_position(*t))
            if (cell* a = free_actor(t->actor)) return exact_take(w, a, v);
      if (cell* a = Inner::pop(w, st)) {
        hold(w, a);
        continue;
      }
      if (!poll(w, false)) skip_pending(w);
    }
  }

  /// The actor with id `id` if the replay may give it a turn now: held, or idle and claimed
  /// (with a dummy envelope, as donation claims: mailbox.hpp). Null: it is running or queued.
  cell* free_actor(std::uint32_t id) {
    if (auto it = held_.find(id); it != held_.end()) {
      cell* a = it->second;
      held_.erase(it);
      return a;
    }
    cell* a = id < actors_.size() ? actors_[id] : nullptr;
    if (!a) return nullptr;
    envelope<P>* dummy = inbox_.dummy();
    if (a->try_claim(dummy)) return a;
    inbox_.give_back(dummy);
    return nullptr;
  }

  /// w takes slot v's next recorded turn (v != w: adopted from a slot never started).
  cell* exact_take(unsigned w, cell* a, unsigned v) {
    const recorded_turn& t = *script_.peek(v);
    worker_state& s = state_[w];
    s.adopted = v != w;
    s.ids.assign(t.ids.begin(), t.ids.end());
    s.next = 0;
    s.matched = true;
    s.exact_turn = true;
    s.limit = std::uint32_t(s.ids.size());
    advance_position(t);
    s.ordinal = script_.advance(v);
    ++progress_;
    if (!s.ids.empty() && inbox_.drain(*a)) ++progress_;
    return a;
  }

  /// Exact mode: moves every held actor's waiting messages into the inbox.
  /// An actor leaves held_ while it is drained: draining is a platform operation, during
  /// which another worker must not take the actor and consume its mailbox too.
  void drain_held() {
    std::vector<std::uint32_t> ids;
    ids.reserve(held_.size());
    for (const auto& [id, a] : held_) ids.push_back(id);
    for (std::uint32_t id : ids) {
      auto it = held_.find(id);
      if (it == held_.end()) continue;
      cell* a = it->second;
      held_.erase(it);
      if (inbox_.drain(*a)) ++progress_;
      held_.emplace(id, a);
    }
  }

  /// Exact mode, step 4: waits once. False: every worker waits and nothing moved for
  /// stall_polls rounds, and this worker is the one to give way (step 4's rule).
  bool poll(unsigned w, bool in_turn) {
    worker_state& s = state_[w];
    if (s.give_up) {
      s.give_up = false;
      return false;
    }
    if (progress_ != quiet_mark_) {
      quiet_mark_ = progress_;
      quiet_ = 0;
    }
    s.in_turn = in_turn;
    if (!s.waiting) {
      s.waiting = true;
      ++waiting_;
    }
    // free mode: only the exact turns still running can send what one of them waits for
    unsigned busy = active();
    if (mode_ == mode::free) {
      busy = 0;
      for (unsigned v = 0; v < slots_; ++v) busy += present(v) && state_[v].exact_turn;
    }
    if (waiting_ >= busy && ++quiet_ > stall_polls * busy) {
      quiet_ = 0;
      // a pending turn of no messages changes nothing: passing it is the mildest way out
      for (unsigned v = 0; v < slots_; ++v) {
        const recorded_turn* t = present(v) && state_[v].waiting && !state_[v].in_turn ? script_.peek(v) : nullptr;
        if (t && t->messages == 0 && in_position(*t)) {
          ++script_.log().followed;
          ++script_.log().passed;
          script_.advance(v);
          ++progress_;
          stop_waiting(w);  // or it would count as waiting while it runs on
          return true;
        }
      }
      // a slot the recording started and this replay's policy did not (adaptive scales by
      // its own measure): its turns go to waiting workers, message-exact, counted `adopted`
      for (unsigned v = 0; v < slots_ && !adopt_; ++v)
        if (const recorded_turn* t = present(v) ? nullptr : script_.peek(v); t && in_position(*t)) {
          adopt_ = true;
          script_.log().notes.push_back("worker " + std::to_string(v) +
                                        " never started in this replay (the policy did not scale as recorded); "
                                        "waiting workers run its recorded turns from here");
          ++progress_;
          stop_waiting(w);
          return true;
        }
      if (script_.log().notes.size() < 12) script_.log().notes.push_back("stall: " + waits());
      unsigned victim = slots_;  // the lowest worker waiting inside a turn
      for (unsigned v = 0; v < slots_ && victim == slots_; ++v)
        if (present(v) && state_[v].waiting && state_[v].in_turn) victim = v;
      if (victim == w || (victim == slots_ && !in_turn)) {
        stop_waiting(w);
        return false;
      }
      if (victim != slots_) state_[victim].give_up = true;  // it sees this at its next poll
    }
    // Not a park: a parked worker is a sleeper any policy's wake_one may pick, and a wake-up
    // spent on a poller could strand an idle worker's queue once the run is free. Spending
    // poll_ns of modeled time and giving the core away lets the others run meanwhile.
    script_.plat().charge_ns(poll_ns);
    script_.plat().yield_now();
    stop_waiting(w);
    return true;
  }

  /// Exact mode: what each worker waits for (the stall note).
  std::string waits() const {
    std::string out;
    for (unsigned v = 0; v < slots_; ++v) {
      if (!present(v)) continue;
      const worker_state& s = state_[v];
      out += "worker " + std::to_string(v) + " ";
      if (s.exact_turn && s.next < s.ids.size()) {
        out += "waits in turn #" + std::to_string(s.ordinal) + " for message " + id_text(s.ids[s.next]);
      } else if (const recorded_turn* t = script_.peek(v)) {
        out += "waits for turn #" + std::to_string(script_.next_ordinal(v)) + " (actor " + std::to_string(t->actor) +
               " at position " + std::to_string(t->start) + ", now " + std::to_string(position(t->actor)) +
               (held_.count(t->actor) ? ", held" : "") + ")";
      } else {
        out += "has no recorded turn left";
      }
      out += s.waiting ? "; " : " (running); ";
    }
    return out + std::to_string(inbox_.size()) + " messages in the inbox";
  }

  /// Exact mode, a stall with no worker inside a turn: the earliest pending turn cannot apply.
  void skip_pending(unsigned w) {
    const unsigned first = earliest();
    if (first == slots_) return;
    advance_position(*script_.peek(first));
    skip(first, w);
    ++progress_;
  }

  /// Free mode: the inbox's messages go back to their mailboxes (step 5).
  void flush(unsigned w) {
    inbox_.flush([&](cell& c) { Inner::push(int(w), c, push_reason::sent); });
  }



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
    state_[w].exact_turn = false;
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
    if (exact_ && mode_ == mode::forced) {
      inbox_.drain(*a);  // exact mode, step 1: before anyone else can take `a` from held_
      held_.emplace(a->id(), a);
      ++progress_;
      return;
    }
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
  bool exact_;
  std::vector<worker_state> state_;
  std::vector<worker_stats> scratch_;  // exact mode: what inner pops count inside a turn (not reported)
  replay_inbox<P> inbox_;              // exact mode: messages by id, until their recorded turn
  std::vector<cell*> actors_;          // by actor id (on_spawn): exact mode claims idle actors
  std::vector<std::uint64_t> position_;  // by actor id: recorded messages consumed by its turns taken so far
  std::uint64_t progress_ = 0, quiet_mark_ = 0;  // exact mode: stall detection (step 4)
  bool adopt_ = false;  // exact mode: run the turns of slots never started (after a stall)
  unsigned quiet_ = 0;
  std::map<std::uint32_t, cell*> held_;  // by actor id: deterministic order
  unsigned waiting_ = 0;
  mode mode_ = mode::match;
  unsigned out_of_order_ = 0;  // a worker allowed its next turn out of the recorded order (slots_: none)
};

}  // namespace twinsched
