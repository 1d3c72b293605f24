// Replay, message-exact mode of a policy that scales (adaptive): thread starts, retirements and migrations made where the recording made them. Part of replay_policy.hpp.
//
// Why: adaptive starts a thread when one is overloaded and retires one that has idled for
// retire_after. Under modeled timing its own measure decides otherwise than on hardware (and
// an exact replay drains its queues, so its rules see nothing queued), so a slot the
// recording started would never run its recorded turns. In an exact turn the policy's
// after_message is therefore not called and its try_retire not asked; the recorded
// decisions are made instead, through the policy's seam (adaptive.hpp: open_slot, retire_to):
//   - the decisions a turn made after its k-th message (migrate and thread_start events in
//     the recorded turn, replay_script.hpp) are made after its k-th message here, in
//     adaptive's order: slots started by the group are opened first, then actors' homes
//     move, then the threads start. A home is written directly: in exact mode where an
//     actor waits is the replay's business (step 1-2), the home only says where the policy
//     will queue it next;
//   - a recorded retirement (thread_retire, with the migrations before it) is a step of the
//     worker's script: the worker takes no turn (exact_pop), goes idle, and try_retire
//     retires it toward the recorded target, or, if that slot does not run here now (a
//     worker retires once its script gets there, which across workers need not be the
//     recorded order), where it forwards to or the least loaded running slot: the target
//     only says where the policy queues those actors next, which exact mode overrides.
// Waiting: a start waits until the slot's earlier recorded starts have been made (one
// slot's starts may come from different lanes; the script ranks them by their recorded
// times, a whole life of the slot apart), its previous thread has retired here and the
// slot is free (reserve_worker hands out the lowest free slot, so a lower free slot is held
// for its own recorded start: `reserved_`); a migration waits until its target slot has
// been opened here; a retirement, until another slot runs. Each such wait is a step 4 poll
// (replay_message_forcing.hpp): what it waits for came first in the real run. On a stall it
// is given up and noted, and since that costs no message and moves no turn off its worker
// (a retirement given up leaves the thread to run its next recorded turns itself; a start
// given up finds the slot's thread still running them), such a wait gives way before any
// turn is cut short. Not a poll: waiting for a retired thread to end (it waits for nothing,
// but takes some platform steps), which a stall must not cut short.
#pragma once
#include "replay_policy_decl.hpp"

namespace twinsched {

template <class Inner>
void replay_policy<Inner>::after_message(policy_port<P>& port, cell& a)
  requires(Inner::caps.observes_work)
{
  if constexpr (Inner::caps.scales_workers)
    if (exact_ && state_[port.index()].exact_turn) return act(port, state_[port.index()].next);
  Inner::after_message(port, a);
}

template <class Inner>
bool replay_policy<Inner>::try_retire(policy_port<P>& port)
  requires(Inner::caps.scales_workers)
{
  if (exact_ && mode_ == mode::forced) return retire_recorded(port);
  // a worker that waits for a scripted actor must not retire: it would never run it
  if (mode_ == mode::forced && state_[port.index()].waiting) return false;
  bool r = Inner::try_retire(port);
  if (r) {
    state_[port.index()].retired = true;
    stop_waiting(port.index());
  }
  return r;
}

/// The current exact turn's recorded decisions made after at most `after` of its messages.
template <class Inner>
void replay_policy<Inner>::act(policy_port<P>& port, std::size_t after) {
  worker_state& s = state_[port.index()];
  const std::size_t from = s.acted;
  while (s.acted < s.actions.size() && s.actions[s.acted].after <= after) ++s.acted;
  if (from == s.acted) return;
  const std::vector<recorded_action> group(s.actions.begin() + std::ptrdiff_t(from),
                                           s.actions.begin() + std::ptrdiff_t(s.acted));
  std::vector<unsigned> opened;
  for (const recorded_action& x : group)
    if (x.what == recorded_action::kind::start && open_recorded(port, x.slot, x.rank)) opened.push_back(x.slot);
  for (const recorded_action& x : group)
    if (x.what == recorded_action::kind::migrate) migrate_recorded(port, x.actor, x.slot, true);
  for (unsigned to : opened) {
    port.note(event_kind::thread_start, 0, 0, to);
    stop_waiting(to);
    state_[to].started = true;  // present from now: its thread is coming
    state_[to].retired = false;
    ++progress_;
    port.start_worker(to);
  }
}

/// Reserves and opens `to` for its recorded start number `rank` (counted over every lane),
/// once the slot's earlier starts are made and its last thread has retired here; false if
/// given up on a stall.
template <class Inner>
bool replay_policy<Inner>::open_recorded(policy_port<P>& port, unsigned to, std::uint32_t rank) {
  const unsigned w = port.index();
  if (to >= slots_) return false;
  for (;;) {
    const bool due = starts_[to] == rank && !present(to);
    // reserve_worker hands out the lowest free slot: one below `to` is held for its own
    // recorded start; one above means `to`'s last thread is still ending (held likewise)
    while (due && !reserved_[to]) {
      const int r = port.reserve_worker();
      if (r < 0) break;
      reserved_[unsigned(r)] = true;
      if (unsigned(r) > to) break;
    }
    if (due && reserved_[to]) {
      reserved_[to] = false;
      Inner::open_slot(port, to);
      opened_[to] = true;
      ++starts_[to];
      ++progress_;
      return true;
    }
    drain_inner(w);
    if (due && state_[to].retired) {
      // retired here, its thread still ending: that needs nobody, so it is no wait on the
      // recording's order and must not count toward a stall (yet it takes platform steps)
      script_.plat().charge_ns(poll_ns);
      script_.plat().yield_now();
      continue;
    }
    if (!poll(w, true, true)) {
      starts_[to] = std::max(starts_[to], rank + 1);  // the slot's next start may be made
      script_.log().notes.push_back("worker " + std::to_string(w) + " could not start worker " +
                                    std::to_string(to) + " as recorded (it never became free)");
      return false;
    }
  }
}

/// A recorded migration of `actor` to `to`, once that slot has been opened here.
template <class Inner>
void replay_policy<Inner>::migrate_recorded(policy_port<P>& port, std::uint32_t actor, unsigned to, bool in_turn) {
  const unsigned w = port.index();
  while (to >= slots_ || !opened_[to]) {
    drain_inner(w);
    if (!poll(w, in_turn, true)) {
      script_.log().notes.push_back("worker " + std::to_string(w) + " could not migrate actor " +
                                    std::to_string(actor) + " to worker " + std::to_string(to) +
                                    " as recorded (never started here)");
      return;
    }
  }
  if (actor < actors_.size() && actors_[actor]) actors_[actor]->home = to;
  port.count_migration();
  port.note(event_kind::migrate, actor, 0, to);
}

/// The worker's recorded retirement, if it is its next step: its migrations, then the
/// retirement toward the recorded target once the policy can make it. False: not now (not
/// its next step), or given up on a stall (noted; the worker goes on with its script).
template <class Inner>
bool replay_policy<Inner>::retire_recorded(policy_port<P>& port) {
  const unsigned w = port.index();
  const recorded_turn* e = script_.peek(w);
  if (!e || !e->retire) return false;
  const std::vector<recorded_action> moves = e->actions;
  const unsigned target = e->target;
  for (const recorded_action& m : moves) migrate_recorded(port, m.actor, m.slot, false);
  for (;;) {
    drain_inner(w);  // so that its retirement moves no actor the recording did not
    if (Inner::retire_to(port, target)) break;
    if (!poll(w, false, true)) {
      script_.log().notes.push_back("worker " + std::to_string(w) +
                                    " could not retire as recorded (no other worker was running here)");
      script_.advance(w);
      return false;
    }
  }
  script_.advance(w);
  state_[w].retired = true;
  stop_waiting(w);
  ++progress_;
  return true;
}

}  // namespace twinsched
