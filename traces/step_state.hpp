// The scheduling state a trace implies at one point: each worker's state, runnable actors by queue, mailbox sizes.
//
// Overview
//   step_state applies a trace's events one at a time, in merged_cursor's order (time, then
//   lane), and keeps what they imply: each worker's state (worker_states, the state machine
//   every trace tool shares) and counts, the runnable actors grouped by the
//   worker that queued them, each actor's mailbox size, and counts by kind. It holds one
//   record per actor and per worker, never the events: memory is bounded by the run's actors
//   and workers whatever the trace's length, so it can step through a trace of any size.
//
// Times are not causal across workers
//   A simulated worker runs ahead of the clock by up to 1.5 quanta, and the real backend
//   interpolates times between clock reads, so in merged order an actor's run_begin can come
//   before the schedule that made it runnable, or a message_begin before its send. Nothing
//   here is a set that an early event could corrupt for good: runnable and mailbox are counts.
//     pending(actor) = schedules + donation pushes - run_begins; runnable iff pending > 0
//     mailbox(actor) = sends to it + messages donated to it - messages donated from it
//                      - its message_begins; shown clamped at 0 (sent and not yet begun:
//                      a message a replay policy holds back counts as waiting)
//   A run_begin before its schedule takes pending to -1 and the schedule brings it back to 0:
//   the actor is never shown runnable with nobody to run it.
//
// Where an actor is queued
//   A schedule event puts the actor in the group of the worker that pushed it (the outside
//   group for the workload's start); a steal moves it to the thief's group, a migrate to the
//   target worker's. The groups are "runnable actors, by the worker that queued them (steals
//   and migrations move them)", not the policies' real queues: sharing's hand-offs and
//   adaptive's homes are not in the trace. A steal or migrate seen before the schedule it
//   follows (inverted times) keeps its group when that schedule arrives.
//
// Donation (policy donation): a donate event is one message moved from the donor actor's
// mailbox to a recipient's; models/policy/donation.hpp records actor = donor, other =
// recipient. The donor's worker then pushes each recipient once, untraced; each run of
// consecutive donate events on one lane with one donor is taken as one push per distinct
// recipient, in the donor worker's group.
#pragma once
#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "models/trace_event.hpp"
#include "worker_states.hpp"

namespace twinsched::traces {

/// A worker as stepping shows it: its state (worker_states) and its counts so far.
struct worker_view {
  using status = worker_status;
  status state = status::not_started;
  std::uint64_t since = 0;       ///< ns: when it entered `state` (idle and parked: the idle spell's start)
  std::uint64_t parked_ns = 0;   ///< parked: when it parked
  std::uint64_t woke_ns = 0;     ///< idle after a park: when it unparked (0: not parked this spell)
  std::uint32_t actor = 0;       ///< running: the actor
  std::uint64_t turns = 0, messages = 0, steals = 0, parks = 0;
};

struct actor_view {
  std::int64_t pending = 0;         ///< schedules + donation pushes - run_begins
  std::int64_t mailbox = 0;         ///< sends + donations in - donations out - message_begins
  std::uint16_t queue = 0;          ///< the group it is runnable in (a worker lane, or outside)
  bool moved_early = false;         ///< a steal or migrate came before the schedule it follows
  std::uint64_t queued_ns = 0;      ///< time of the last schedule, steal or migrate
  std::uint64_t queued_event = 0;   ///< ordinal of that event: orders equal times
  bool runnable() const { return pending > 0; }
  std::uint64_t mailbox_size() const { return mailbox > 0 ? std::uint64_t(mailbox) : 0; }
};

/// One group of runnable actors, oldest queued first.
struct runnable_group {
  std::uint16_t queue = 0;  ///< worker lane, or outside_worker
  std::vector<std::uint32_t> actors;
};

class step_state {
 public:
  /// `worker_lanes`: the trace's worker lanes (header `lanes`): each is listed from the start,
  /// as not started. `full`: the trace has sends and message events (mailbox sizes).
  step_state(unsigned worker_lanes, bool full);

  void apply(const trace_event& e);

  std::uint64_t events() const { return events_; }
  std::uint64_t count(event_kind k) const { return by_kind_[unsigned(k)]; }
  const std::array<std::uint64_t, 16>& by_kind() const { return by_kind_; }
  /// Time of the last event applied (0 before the first).
  std::uint64_t now_ns() const { return now_ns_; }
  bool mailboxes_known() const { return full_; }

  /// Every worker lane, ascending: the header's lanes and any other seen.
  const std::vector<worker_view>& workers() const { return workers_; }
  const actor_view* actor(std::uint32_t id) const;
  std::size_t actors_seen() const { return actors_.size(); }

  /// Runnable actors grouped by queue: worker lanes ascending, the outside group last.
  std::vector<runnable_group> runnable() const;
  /// Non-empty mailboxes, largest first (ties: lower actor id first), at most `n`.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> largest_mailboxes(std::size_t n) const;
  /// Messages in every mailbox, and how many mailboxes are non-empty.
  std::uint64_t mailbox_total() const;
  std::size_t mailboxes_nonempty() const;

 private:
  struct donation_step {
    bool open = false;  ///< the lane's last event was a donate
    std::uint32_t donor = 0;
    std::vector<std::uint32_t> pushed;  ///< recipients pushed in this step
  };

  worker_view& lane(std::uint16_t w);
  actor_view& at(std::uint32_t id) { return actors_[id]; }
  void push(std::uint32_t actor, std::uint16_t queue, std::uint64_t t);
  void move(std::uint32_t actor, std::uint16_t queue, std::uint64_t t);
  void donate(const trace_event& e);

  bool full_;
  std::uint64_t events_ = 0, now_ns_ = 0;
  std::array<std::uint64_t, 16> by_kind_{};
  std::vector<worker_view> workers_;
  std::vector<donation_step> donations_;  ///< per worker lane
  std::unordered_map<std::uint32_t, actor_view> actors_;
  worker_states states_;
};

}  // namespace twinsched::traces
