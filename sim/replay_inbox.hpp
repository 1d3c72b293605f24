// The messages a message-exact replay has taken out of mailboxes, by id, until the recorded turn that consumed them takes them.
//
// A message-exact replay (replay_policy.hpp, exact mode) never lets a turn read its mailbox
// in arrival order: arrival order is modeled timing, not the recording's. Instead every
// message that reaches a mailbox the replay controls is moved here, keyed by its id (the
// sending actor and its send count, models/envelope.hpp: the same in the recording and in the
// replay), and a turn is handed exactly the ids its recorded message_begin events name, in
// that order. What is left when the recorded turns run out goes back to the mailboxes it
// came from (`flush`), and the run finishes under the scenario's seed.
//
// Envelopes: a popped message stays in the mailbox as its dummy (mailbox.hpp), so the inbox
// keeps a copy and recycles the spent envelopes into `spare`, from which it builds the
// envelopes it hands out. Simulator only (replay_policy.hpp says why plain fields are safe;
// a mailbox operation is a platform operation, so nothing is iterated across one).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "models/actor.hpp"
#include "models/envelope.hpp"
#include "models/message.hpp"

namespace twinsched {

template <class P>
class replay_inbox {
  using cell = actor_cell<P>;
  using node = envelope<P>;

 public:
  /// Moves every message poppable from `a`'s mailbox into the inbox; the caller owns `a`.
  /// Returns how many moved.
  std::size_t drain(cell& a) {
    std::size_t n = 0;
    for (;;) {
      node *e = nullptr, *spent = nullptr;
      if (a.box().pop(e, spent) != mailbox<P>::pop_status::item) return n;
      letters_[e->id] = letter{e->msg, e->seq, &a};
      if (spent) spare_.push_back(spent);  // after the copy: it may be `e` (mailbox.hpp)
      ++n;
    }
  }

  /// True if message `id` is here and `a` may consume it: it was sent to `a`, or to a member
  /// of `a`'s group of equals (the recording donated it).
  bool has_for(std::uint64_t id, const cell& a) const {
    auto it = letters_.find(id);
    if (it == letters_.end()) return false;
    const cell* to = it->second.to;
    return to == &a || (a.group() != 0 && to->group() == a.group());
  }

  /// Takes message `id` (has_for was true) in an envelope the caller now owns.
  node* take(std::uint64_t id) {
    auto it = letters_.find(id);
    node* e = envelope_for(it->second, id);
    letters_.erase(it);
    return e;
  }

  /// An envelope for a claim's dummy (mailbox.hpp try_claim); its content is irrelevant.
  node* dummy() { return fresh(); }
  /// An envelope the caller took and did not use.
  void give_back(node* e) { spare_.push_back(e); }

  /// Puts every message back into the mailbox it came from, lowest id first; calls
  /// `schedule(actor)` for each actor that was idle and so must now be made runnable.
  template <class Schedule>
  void flush(Schedule&& schedule) {
    // out of the member first: a push is a platform operation, during which others may drain
    std::map<std::uint64_t, letter> all;
    all.swap(letters_);
    for (auto& [id, l] : all)
      if (l.to->push(envelope_for(l, id))) schedule(*l.to);
  }

  std::size_t size() const { return letters_.size(); }

 private:
  struct letter {
    message msg;
    std::uint64_t seq = 0;
    cell* to = nullptr;  ///< the actor whose mailbox it was taken from
  };

  node* fresh() {
    if (spare_.empty()) {
      extra_.emplace_back();  // rare: only while the replay holds more envelopes than it recycled
      return &extra_.back();
    }
    node* e = spare_.back();
    spare_.pop_back();
    return e;
  }

  node* envelope_for(const letter& l, std::uint64_t id) {
    node* e = fresh();
    e->msg = l.msg;
    e->id = id;
    e->seq = l.seq;
    return e;
  }

  std::map<std::uint64_t, letter> letters_;  // by message id: deterministic order
  std::vector<node*> spare_;                 // envelopes recycled from drained mailboxes
  std::deque<node> extra_;                   // allocated when spare_ ran dry; freed with the replay
};

}  // namespace twinsched
