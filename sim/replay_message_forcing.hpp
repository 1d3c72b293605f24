// Replay, message-exact mode (a full-level trace of a real run): each turn takes exactly its recorded messages, on its recorded worker, in each actor's recorded receive order. Part of replay_policy.hpp.
//
// What a turn consumes is forced too, so "followed" means the recorded actor ran on the
// recorded worker with exactly the recorded messages. Timing cannot decide that: under
// modeled time messages reach mailboxes in another order. So:
//   1. every message reaching a mailbox the replay controls (an actor it holds, or runs in
//      an exact turn) moves into the inbox (replay_inbox.hpp), keyed by its id: the
//      sending actor and its send count, the same in the recording and the replay;
//   2. a worker takes its next recorded turn as soon as the actor is free (held, or idle:
//      claimed as donation claims, mailbox.hpp) and the actor has consumed, in this replay,
//      exactly the messages it had before that turn in the recording (run_begin's message
//      field; replay_receive_order.hpp), so one actor's turns on different workers keep
//      their recorded order. No cross-worker time gate: recorded clocks of different cores
//      are not exact enough;
//   3. the turn (worker.hpp picks_messages / next_message) takes each recorded id from the
//      inbox, waiting in the turn while it has not been sent yet;
//   4. a worker that waits (for its actor, inside a turn for a message, or for a recorded
//      thread start or retirement: replay_scale_forcing.hpp) polls: it drains the inner
//      policy, its actor's mailbox and, for a member of a group of equals, the held members'
//      mailboxes (a recorded donation), then spends `poll_ns` of modeled time and yields
//      its core. Why this finishes: the recording is one real
//      execution, so among the waiting workers the one whose next step came first in real
//      time can always take it (what it waits for happened before, in a prefix the replay
//      has run). A trace that is not a real execution (damaged, tampered with, a workload
//      that is not deterministic) stalls instead: every worker waits and nothing moves for
//      `stall_polls` rounds. Then the lowest worker waiting inside a turn ends that turn
//      early (not followed), or if none does, the earliest pending turn is skipped; the run
//      goes on. Before that, milder ways out: a pending turn of no messages consumes and
//      changes nothing, so it is passed (counted followed, and in `passed`; step 2 orders
//      such turns, so a real trace never needs it); a worker waiting for a recorded thread
//      start, retirement or migration gives it up (replay_scale_forcing.hpp); for a slot the recording started
//      and this replay could not (a recorded start given up on a stall), waiting workers run
//      that slot's turns from then on, with their recorded messages (`adopted`, not
//      followed: another worker ran them);
//   5. when the recorded turns run out, the inbox goes back to the mailboxes and the run
//      finishes under the scenario's seed (free mode).
// Which messages an actor consumed is then its recorded set, so its delivery digest equals
// the recording's footer (cli/replay_command.cpp checks it).
#pragma once
#include "replay_policy_decl.hpp"

namespace twinsched {

/// Step 3: the turn's next recorded message, waiting for it if it has not been sent yet;
/// null when the turn has had them all, or on a stall (not followed).
template <class Inner>
envelope<sim_platform>* replay_policy<Inner>::next_message(policy_port<P>& port, cell& a) {
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
    if (a.group() != 0) {  // a recorded donation: the message was sent to another member
      drain_held(a.group());
      if (inbox_.has_for(id, a)) continue;
    }
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

/// After an exact turn, before the worker releases the actor.
template <class Inner>
void replay_policy<Inner>::end_turn(policy_port<P>& port, cell& a) {
  const unsigned w = port.index();
  worker_state& s = state_[w];
  if (!s.exact_turn) return;
  if constexpr (Inner::caps.scales_workers) act(port, ~std::size_t(0));  // those a turn ended early skipped
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

/// Step 2: w's next recorded turn, once its actor is free and at the recorded position;
/// else w drains what it can reach and waits (step 4). A recorded retirement next: no work,
/// so that the worker goes idle and retires (try_retire).
template <class Inner>
auto replay_policy<Inner>::exact_pop(unsigned w, worker_stats& st) -> cell* {
  for (;;) {
    if (mode_ == mode::free) return free_pop(w, st);
    const recorded_turn* e = script_.peek(w);
    if (!e && earliest() == slots_) {  // no running worker has a recorded turn left
      run_out(w);
      flush(w);
      continue;
    }
    if (e && e->retire) {
      if constexpr (Inner::caps.scales_workers) return nullptr;  // try_retire makes it
      script_.advance(w);  // a policy that never retires: a damaged trace
      continue;
    }
    if (e && order_.in_position(*e))
      if (cell* a = free_actor(e->actor)) return exact_take(w, a, w);
    if (adopt_)  // after a stall: turns of slots whose worker never started here
      for (unsigned v = 0; v < slots_; ++v)
        if (const recorded_turn* t = present(v) ? nullptr : script_.peek(v); t && !t->retire && order_.in_position(*t))
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
template <class Inner>
auto replay_policy<Inner>::free_actor(std::uint32_t id) -> cell* {
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
template <class Inner>
auto replay_policy<Inner>::exact_take(unsigned w, cell* a, unsigned v) -> cell* {
  const recorded_turn& t = *script_.peek(v);
  worker_state& s = state_[w];
  s.adopted = v != w;
  s.ids.assign(t.ids.begin(), t.ids.end());
  s.actions.assign(t.actions.begin(), t.actions.end());
  s.acted = 0;
  s.next = 0;
  s.matched = true;
  s.exact_turn = true;
  s.limit = std::uint32_t(s.ids.size());
  order_.advance(t);
  s.ordinal = script_.advance(v);
  ++progress_;
  if (!s.ids.empty() && inbox_.drain(*a)) ++progress_;
  return a;
}

/// Moves the waiting messages of every held actor of group `group` into the inbox (only a
/// member's messages can be donated to another: a wait scans those, not every held actor).
/// An actor leaves held_ while it is drained: draining is a platform operation, during
/// which another worker must not take the actor and consume its mailbox too.
template <class Inner>
void replay_policy<Inner>::drain_held(std::uint32_t group) {
  std::vector<std::uint32_t> ids;
  for (const auto& [id, a] : held_)
    if (a->group() == group) ids.push_back(id);
  for (std::uint32_t id : ids) {
    auto it = held_.find(id);
    if (it == held_.end()) continue;
    cell* a = it->second;
    held_.erase(it);
    if (inbox_.drain(*a)) ++progress_;
    held_.emplace(id, a);
  }
}

/// Moves every actor the inner policy queued for w into held_.
template <class Inner>
void replay_policy<Inner>::drain_inner(unsigned w) {
  while (cell* b = Inner::pop(w, scratch_[w])) hold(w, b);
}

/// Step 4: waits once (`scaling`: for a recorded scaling decision). False: every worker
/// waits and nothing moved for stall_polls rounds, and this worker is the one to give way
/// (step 4's rule).
template <class Inner>
bool replay_policy<Inner>::poll(unsigned w, bool in_turn, bool scaling) {
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
  s.scaling = scaling;
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
      if (t && !t->retire && t->messages == 0 && order_.in_position(*t)) {
        ++script_.log().followed;
        ++script_.log().passed;
        order_.advance(*t);
        script_.advance(v);
        ++progress_;
        stop_waiting(w);  // or it would count as waiting while it runs on
        return true;
      }
    }
    // a recorded scaling decision costs no message given up (replay_scale_forcing.hpp)
    unsigned scaler = slots_;
    for (unsigned v = 0; v < slots_ && scaler == slots_; ++v)
      if (present(v) && state_[v].waiting && state_[v].scaling) scaler = v;
    if (scaler == w) {
      stop_waiting(w);
      return false;
    }
    if (scaler != slots_) {
      state_[scaler].give_up = true;  // it sees this at its next poll
      ++progress_;
      script_.plat().charge_ns(poll_ns);
      script_.plat().yield_now();
      stop_waiting(w);
      return true;
    }
    // a slot the recording started and this replay did not: its turns go to waiting
    // workers, message-exact, counted `adopted`
    for (unsigned v = 0; v < slots_ && !adopt_; ++v)
      if (const recorded_turn* t = present(v) ? nullptr : script_.peek(v); t && !t->retire && order_.in_position(*t)) {
        adopt_ = true;
        script_.log().notes.push_back("worker " + std::to_string(v) +
                                      " never started in this replay (its recorded start could not be made); "
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

/// What each worker waits for (the stall note).
template <class Inner>
std::string replay_policy<Inner>::waits() const {
  std::string out;
  for (unsigned v = 0; v < slots_; ++v) {
    if (!present(v)) continue;
    const worker_state& s = state_[v];
    out += "worker " + std::to_string(v) + " ";
    if (s.exact_turn && s.next < s.ids.size()) {
      out += "waits in turn #" + std::to_string(s.ordinal) + " for message " + id_text(s.ids[s.next]);
    } else if (const recorded_turn* t = script_.peek(v); t && t->retire) {
      out += "waits to retire (its actors to worker " + std::to_string(t->target) + ")";
    } else if (t) {
      out += "waits for turn #" + std::to_string(script_.next_ordinal(v)) + " (actor " + std::to_string(t->actor) +
             " at position " + std::to_string(t->start) + ", now " + std::to_string(order_.position(t->actor)) +
             (order_.empty_before(*t) ? ", after " + std::to_string(order_.empty_before(*t)) + " empty turns" : "") +
             (held_.count(t->actor) ? ", held" : "") + ")";
    } else {
      out += "has no recorded turn left";
    }
    out += s.waiting ? "; " : " (running); ";
  }
  return out + std::to_string(inbox_.size()) + " messages in the inbox";
}

/// A stall with no worker inside a turn: the earliest pending turn cannot apply.
template <class Inner>
void replay_policy<Inner>::skip_pending(unsigned w) {
  unsigned first = slots_;  // as earliest(), among turns (a retirement gives way on its own)
  for (unsigned v = 0; v < slots_; ++v)
    if (const recorded_turn* t = present(v) ? script_.peek(v) : nullptr; t && !t->retire)
      if (first == slots_ || t->time_ns < script_.peek(first)->time_ns) first = v;
  if (first == slots_) return;
  order_.advance(*script_.peek(first));
  skip(first, w);
  ++progress_;
}

/// Free mode: the inbox's messages go back to their mailboxes (step 5).
template <class Inner>
void replay_policy<Inner>::flush(unsigned w) {
  inbox_.flush([&](cell& c) { Inner::push(int(w), c, push_reason::sent); });
}

}  // namespace twinsched
