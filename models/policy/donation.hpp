// Policy `donation`: work stealing, plus donation of queued messages from a backed-up member of a group of equals to an idle member.
//
// Overview
//   Stealing moves whole actors, so one slow actor's backlog can only be drained by that
//   actor, on one core. Actors spawned into a group of equals (spawn_options::group: same
//   behavior, any member may process any message of the group) lift that limit: after each
//   message a group member processes, the worker running it looks at its mailbox; if more
//   than `donate_threshold` messages wait and another member of the group is idle, it moves
//   messages from the newest end of the busy mailbox to that member and makes the member
//   runnable at once, where an idle worker steals it. Everything else is `stealing`
//   (per-worker deques, LIFO slot, random victims), which this policy wraps.
//
// Per-sender order is NOT promised for groups that allow donation: a donated message may be
// processed, on another member, before messages its sender sent earlier. Messages to actors
// outside groups keep every guarantee (the runtime invariants in docs/ARCHITECTURE.md).
//
// Protocol (worker w, after a message of group member A, which w owns)
//   1. if A's backlog (mailbox.hpp `backlog`, counted up to threshold + 1) <= threshold: done
//   2. lock the group table; for up to `scan_members` other members B, starting after the
//      last one tried, `try_claim` B (idle -> scheduled). A claimed B is idle, owned by w,
//      and in no queue; stop after `max_recipients`
//   3. none claimed: skip the next `cooldown` group messages on this worker (the table
//      lock and the CAS on members' state lines are not free) and stop
//   4. count A's backlog (up to mailbox::max_scan) and unlink from its newest end, skipping
//      messages that were donated already (flag `message_donated`), all but A's share
//      (backlog / (recipients + 1)); mailbox.hpp `take_newest` says why the consumer may
//   5. flag each taken message donated and push it to a recipient, in their original order
//   6. push every claimed recipient onto w's deque with a strict wake (stealing's
//      `push_and_wake`), messages or not: the state machine needs its owner to run it to
//      release it, and an empty turn does just that
//   Why exactly once: a message is unlinked from one mailbox by its only consumer and pushed
//   to one other; the sent/processed counts it already carries are unchanged (the donor
//   holds it, unprocessed, so the run cannot look quiescent meanwhile). Why never two
//   workers on one actor: recipients are claimed through the actor-state CAS before
//   anything is pushed, exactly as a sender claims. Why never donated twice: step 4 skips
//   flagged messages, and the flag is set before the message becomes visible elsewhere.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "../config.hpp"
#include "../message.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "../tracer.hpp"
#include "policy.hpp"
#include "policy_info.hpp"
#include "stealing.hpp"

namespace twinsched {

template <class P>
class donation_policy;

template <>
struct policy_info<donation_policy> {
  static constexpr const char* name = "donation";
  static constexpr const char* description =
      "a backed-up actor's queued messages are donated to an idle equal actor (needs groups)";
  static constexpr knob<scheduler_config> knobs[] = {
      {.key = "donate_threshold",
       .help = "mailbox length at which an actor's newest messages go to an idle member of its group",
       .u32 = &scheduler_config::donate_threshold,
       .min = 1},
  };
  /// Groups are declared by the built workload (they may depend on its parameters);
  /// building one only reads the parameters.
  static void check(const scenario& s) {
    const workload_info* w = find_workload(s.workload);
    if (w && w->make && !w->make(with_defaults(*w, s.workload_params), s.seed)->has_groups())
      throw config_error("donation needs a workload with a group of equal actors; '" + s.workload +
                         "' declares none (try workload \"pool\")");
  }
};

template <class P>
class donation_policy {
 public:
  static constexpr const char* name = policy_info<donation_policy>::name;
  static constexpr unsigned scan_members = 8, max_recipients = 4, cooldown = 8;

  static constexpr policy_caps caps{.observes_work = true};  // after_message: donating

  explicit donation_policy(const policy_setup<P>& s) : base_(s), threshold_(s.config.donate_threshold) {
    for (unsigned i = 0; i < s.config.workers; ++i) locals_.push_back(std::make_unique<local>());
  }

  void on_spawn(actor_cell<P>& a, int by) {
    base_.on_spawn(a, by);
    if (a.group() == 0) return;
    lock_guard g(groups_mutex_);
    groups_[a.group()].push_back(&a);
  }

  void push(int from, actor_cell<P>& a, push_reason why) { base_.push(from, a, why); }
  actor_cell<P>* pop(unsigned w, worker_stats& st) { return base_.pop(w, st); }
  bool has_work(unsigned w) const { return base_.has_work(w); }
  std::size_t queued() const { return base_.queued(); }
  void add_stats(unsigned w, worker_stats& st) const { base_.add_stats(w, st); }
  void describe(std::string& out) const { base_.describe(out); }

  void on_idle(policy_port<P>&) {}  // donating happens after messages only
  void after_message(policy_port<P>& port, actor_cell<P>& a) {
    if (a.group() == 0) return;
    local& me = *locals_[port.index()];
    if (me.cooldown != 0) {
      --me.cooldown;
      return;
    }
    if (a.box().backlog(threshold_ + 1) <= threshold_ || a.stopped()) return;  // step 1

    actor_cell<P>* to[max_recipients];
    unsigned k = claim_idle_members(port, a, me, to);  // step 2
    if (k == 0) {
      me.cooldown = cooldown;  // step 3
      return;
    }
    using node = envelope<P>;
    node* taken[mailbox<P>::max_scan];
    std::size_t n = a.box().backlog(mailbox<P>::max_scan);  // step 4
    std::size_t want = n - n / (k + 1);
    std::size_t got = a.box().take_newest(mailbox<P>::max_scan, want,
                                          [](const message& m) { return (m.flags & message_donated) == 0; }, taken);
    for (unsigned j = 0; j < k; ++j) {  // step 5: recipient j gets slice j, in order
      for (std::size_t i = got * j / k; i < got * (j + 1) / k; ++i) {
        taken[i]->msg.flags |= message_donated;
        port.note(event_kind::donate, a.id(), taken[i]->id, to[j]->id());
        (void)to[j]->box().push(taken[i]);  // claimed: never idle, nothing to schedule
      }
    }
    port.count_donations(got);
    for (unsigned j = 0; j < k; ++j) base_.push_and_wake(port.index(), *to[j]);  // step 6
  }

 private:
  struct alignas(64) local {
    unsigned cooldown = 0;  // owner only
    std::size_t rotor = 0;  // owner only: where the next search for idle members starts
  };

  /// Step 2. A claimed member that has stopped gets no messages (they would become dead
  /// letters) but is pushed at once, so that a turn releases it.
  unsigned claim_idle_members(policy_port<P>& port, actor_cell<P>& a, local& me, actor_cell<P>** to) {
    const unsigned w = port.index();
    lock_guard g(groups_mutex_);
    auto& members = groups_[a.group()];
    unsigned k = 0;
    std::size_t n = members.size();
    std::size_t tries = n < scan_members ? n : scan_members;
    for (std::size_t t = 0; t < tries && k < max_recipients; ++t) {
      actor_cell<P>* b = members[(me.rotor + t) % n];
      if (b == &a) continue;
      envelope<P>* dummy = port.take_envelope();  // a claimed mailbox needs one (mailbox.hpp)
      if (!b->try_claim(dummy)) {
        port.give_back_envelope(dummy);
        continue;
      }
      if (b->stopped()) base_.push_and_wake(w, *b);  // `stopped` is ours to read once claimed
      else to[k++] = b;
    }
    me.rotor += tries;
    return k;
  }

  stealing_policy<P> base_;
  std::uint32_t threshold_;
  std::vector<std::unique_ptr<local>> locals_;
  typename P::mutex groups_mutex_;
  std::map<std::uint32_t, std::vector<actor_cell<P>*>> groups_;  // under groups_mutex_
};

}  // namespace twinsched
