// Each actor's receive order in a message-exact replay: where its recorded turns taken so far left it, and which of its turns may start now.
//
// A full-level recording gives every turn its start: the messages its actor had processed
// before it (run_begin's message field). One actor's turns, in real time, start where the
// previous one ended, so a turn may start in the replay when the actor's turns taken so far
// have consumed exactly `start` messages: its turns keep their recorded order across workers
// without any clock (replay_message_forcing.hpp, step 2).
//
// Turns of no messages (a claimed donation recipient, a mailbox caught mid-push) do not move
// the position, so several turns can share one start: the empty ones and the actor's next
// turn that consumes messages. In real time the empty ones came first (the one that
// consumes moves the position past them), so that turn waits until every empty turn at its
// start has been taken; the script counts them over the whole trace (replay_script.hpp).
// Left unordered, the turn that consumes could take the actor first and wait inside for a
// message that the empty turn's worker sends only after that empty turn: a stall.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "replay_script.hpp"

namespace twinsched {

class replay_receive_order {
 public:
  using empty_counts = std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t>;

  explicit replay_receive_order(empty_counts empty) : empty_(std::move(empty)) {}

  /// Makes room for actors with ids below `n` (spawned: replay_policy::on_spawn).
  void grow(std::size_t n) {
    if (n > position_.size()) position_.resize(n, 0);
  }

  /// The recorded messages actor `a`'s turns taken so far have consumed.
  std::uint64_t position(std::uint32_t a) const { return a < position_.size() ? position_[a] : 0; }

  /// Whether turn `t` may start now: an empty turn once its start is reached; a turn that
  /// consumes at exactly its start, after the empty turns there.
  bool in_position(const recorded_turn& t) const {
    if (t.messages == 0) return t.start <= position(t.actor);
    return t.start == position(t.actor) && !empty_.count({t.actor, t.start});
  }

  /// Turn `t` was taken, passed or skipped: its actor's position moves past its messages.
  void advance(const recorded_turn& t) {
    if (t.messages == 0)
      if (auto it = empty_.find({t.actor, t.start}); it != empty_.end() && --it->second == 0) empty_.erase(it);
    if (t.actor < position_.size()) position_[t.actor] = std::max(position_[t.actor], t.start + t.messages);
  }

  /// The empty turns still to be taken at `t`'s start (the stall note).
  std::uint32_t empty_before(const recorded_turn& t) const {
    auto it = empty_.find({t.actor, t.start});
    return it == empty_.end() ? 0 : it->second;
  }

 private:
  std::vector<std::uint64_t> position_;  // by actor id
  empty_counts empty_;                   // (actor, start) -> empty turns there not yet taken
};

}  // namespace twinsched
