// Policy `sharing`: distribution plus a queue of hungry dispatchers; busy dispatchers hand pending actors to hungry ones.
//
// Overview
//   As in `distribution`, every actor has a home dispatcher (round robin at spawn) and
//   waits for it in that dispatcher's queue. In addition:
//   1. A dispatcher that finds its queue empty enqueues itself as hungry, once, and goes on
//      idling (its idle strategy: spin, yield, park...).
//   2. A dispatcher that takes an actor from its queue and still has more pending hands one
//      of the extras to each hungry dispatcher it can find, oldest first.
//   3. A message that makes an idle actor runnable sends the actor to a hungry dispatcher if
//      there is one, in preference to its home.
//   In 2 and 3 the actor's `home` is set to the hungry dispatcher before the actor moves, so
//   it stays there (its later turns and messages go to the new home) until moved again.
//   The work moves to the idle, instead of the idle looking for work (stealing): the busy
//   side pays, and only when someone is hungry.
//
// Forwarding
//   Queues hold actors, not messages: a message always goes to its actor's mailbox, and the
//   actor is queued at the home read by whoever made it runnable. `home` is read and written
//   only by the holder of the actor's scheduled state (the send claimant, the worker running
//   it, or the dispatcher that just took it from its queue; actor.hpp), so nobody can read
//   a home that is about to change. No message can reach an old dispatcher, and the
//   forwarding step the design calls for is never needed.
//
// The hungry queue
//   A ring of dispatcher indices under one mutex. `hungry` says a dispatcher wants work;
//   `listed` says its index is in the ring, so the ring never holds more than one entry per
//   dispatcher. A dispatcher that finds work of its own lowers its `hungry` flag but stays
//   listed; a giver that pops an entry whose flag is down discards it. `hungry_count_`
//   (entries in the ring) is read without the lock on the hot path: a stale value only
//   delays or wastes one hand-off, never loses an actor (the actor is queued somewhere
//   either way).
//
// Wake-ups: every hand-off and every push onto another dispatcher's queue wakes that
// dispatcher with the strict `wake` (parking.hpp); a push onto the pusher's own queue
// wakes nobody (no one else may run the actor; the pusher will).
// Per-sender order: an actor moves whole, with its mailbox, so it is kept.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "../tracer.hpp"
#include "dispatcher_queue.hpp"
#include "policy.hpp"
#include "policy_info.hpp"

namespace twinsched {

template <class P>
class sharing_policy;

template <>
struct policy_info<sharing_policy> {
  static constexpr const char* name = "sharing";
  static constexpr const char* description =
      "distribution + hungry workers: a busy worker hands pending actors to idle ones";
};

template <class P>
class sharing_policy {
 public:
  static constexpr const char* name = policy_info<sharing_policy>::name;
  static constexpr policy_caps caps{.observes_work = true};  // on_idle: step 1

  explicit sharing_policy(const policy_setup<P>& s)
      : park_(s.park), tracer_(s.trace), n_(s.config.workers), ring_(s.config.workers) {
    for (unsigned i = 0; i < n_; ++i) slots_.push_back(std::make_unique<slot>());
  }

  /// Round robin; relaxed: a counter that orders nothing.
  void on_spawn(actor_cell<P>& a, int) { a.home = next_.fetch_add(1, std::memory_order_relaxed) % n_; }

  void push(int from, actor_cell<P>& a, push_reason why) {
    // 3: a message woke the actor: a hungry dispatcher takes it (relaxed: a hint, see header)
    if (why != push_reason::yielded && hungry_count_.load(std::memory_order_relaxed) != 0) {
      int h = take_hungry(from);
      if (h >= 0) {
        if (a.home != unsigned(h) && from >= 0) ++slots_[unsigned(from)]->moved;
        hand(from, a, unsigned(h));
        return;
      }
    }
    unsigned d = a.home;
    slots_[d]->q.push(a);
    if (int(d) != from) park_.wake(d, from);
  }

  actor_cell<P>* pop(unsigned w, worker_stats& st) {
    slot& me = *slots_[w];
    actor_cell<P>* a = me.q.pop();
    if (!a) return nullptr;
    if (me.hungry.load(std::memory_order_relaxed)) fed(w);
    // 2: more pending here and someone hungry: one extra each (relaxed loads: hints)
    while (me.q.size() != 0 && hungry_count_.load(std::memory_order_relaxed) != 0) {
      int h = take_hungry(int(w));
      if (h < 0) break;
      actor_cell<P>* x = me.q.pop();
      if (!x) {
        starve(unsigned(h));  // nothing to give after all: h stays hungry
        break;
      }
      ++st.migrations;
      hand(int(w), *x, unsigned(h));
    }
    return a;
  }

  /// 1: enqueue ourselves as hungry, once per spell without work.
  void on_idle(policy_port<P>& port) {
    if (!slots_[port.index()]->hungry.load(std::memory_order_relaxed)) starve(port.index());
  }
  void after_message(policy_port<P>&, actor_cell<P>&) {}  // work moves only in push and pop

  bool has_work(unsigned w) const { return slots_[w]->q.size() != 0; }
  std::size_t queued() const {
    std::size_t n = 0;
    for (auto& s : slots_) n += s->q.size();
    return n;
  }
  void add_stats(unsigned w, worker_stats& st) const { st.migrations += slots_[w]->moved; }

  /// Hang report: each dispatcher's queue and hungry flag, and the hungry ring (read
  /// without hungry_mutex_: queue_report.hpp says why).
  void describe(std::string& out) const {
    for (unsigned i = 0; i < n_; ++i) {
      out += "  queue of worker " + std::to_string(i) + ": ";
      slots_[i]->q.describe(out);
      out += slots_[i]->hungry.load(std::memory_order_relaxed) ? ", hungry" : ", not hungry";
      out += slots_[i]->listed ? ", in the hungry ring\n" : "\n";
    }
    out += "  hungry ring, oldest first:";
    for (unsigned k = 0; k < ring_size_ && k < n_; ++k) out += " " + std::to_string(ring_[(ring_head_ + k) % n_]);
    out += ring_size_ ? "\n" : " (empty)\n";
  }

 private:
  /// The actor goes to dispatcher h, which is woken. The caller holds the actor.
  void hand(int from, actor_cell<P>& a, unsigned h) {
    // hand-offs happen inside push and pop, so they are traced here, not through a port
    if (from >= 0 && a.home != h && tracer_.on(trace_level::decisions)) tracer_(event_kind::migrate, unsigned(from), a.id(), 0, h);
    a.home = h;  // before it moves: whoever takes it next reads the new home
    slots_[h]->q.push(a);
    park_.wake(h, from);
  }

  void starve(unsigned w) {
    lock_guard g(hungry_mutex_);
    slot& s = *slots_[w];
    s.hungry.store(1, std::memory_order_relaxed);
    if (!s.listed) {
      s.listed = true;
      ring_[(ring_head_ + ring_size_++) % n_] = w;
      hungry_count_.store(ring_size_, std::memory_order_relaxed);  // a hint (see header)
    }
  }

  // `hungry` and `hungry_count_` are written only under hungry_mutex_; relaxed everywhere:
  // the mutex orders the writers, and lock-free readers take them as hints (header).
  void fed(unsigned w) {
    lock_guard g(hungry_mutex_);
    slots_[w]->hungry.store(0, std::memory_order_relaxed);  // stays listed; givers discard it
  }

  /// The oldest dispatcher that is still hungry (not `exclude`), marked fed; or -1.
  int take_hungry(int exclude) {
    lock_guard g(hungry_mutex_);
    while (ring_size_ != 0) {
      unsigned h = ring_[ring_head_];
      ring_head_ = (ring_head_ + 1) % n_;
      --ring_size_;
      hungry_count_.store(ring_size_, std::memory_order_relaxed);
      slot& s = *slots_[h];
      s.listed = false;
      bool wants = s.hungry.load(std::memory_order_relaxed) != 0;
      s.hungry.store(0, std::memory_order_relaxed);  // unlisted => not hungry: on_idle relists
      if (wants && int(h) != exclude) return int(h);
    }
    return -1;
  }

  struct alignas(64) slot {
    dispatcher_queue<P> q;
    // `hungry` is written under hungry_mutex_ and read without it (by its owner, as a hint)
    typename P::template atomic<std::uint8_t> hungry{0};
    bool listed = false;      // under hungry_mutex_
    std::uint64_t moved = 0;  // actors this worker sent to a hungry dispatcher (owner only)
  };

  parking<P>& park_;
  const tracer<P>& tracer_;
  unsigned n_;
  std::vector<std::unique_ptr<slot>> slots_;
  typename P::template atomic<std::uint32_t> next_{0};
  alignas(64) typename P::template atomic<std::uint32_t> hungry_count_{0};
  typename P::mutex hungry_mutex_;
  std::vector<unsigned> ring_;  // under hungry_mutex_
  unsigned ring_head_ = 0, ring_size_ = 0;
};

}  // namespace twinsched
