// An actor's mailbox: a lock-free multi-producer single-consumer FIFO of pooled envelopes.
//
// Overview
//   Dmitry Vyukov's MPSC queue, in its form with a consumer-owned dummy node. Producers
//   (any worker sending to the actor) append with one atomic exchange on `tail_`; the single
//   consumer (the worker running the actor; actor.hpp guarantees there is one) advances
//   `head_` with plain loads. The message popped stays in its envelope, which becomes the
//   new dummy; the previous dummy is handed back for recycling. A pop therefore costs no
//   read-modify-write, and a push costs one. The owner itself may queue a message with
//   plain writes, on a list of its own that pops first (`push_owned`, below).
//   The actor's idle/scheduled state lives in `tail_` too: `tail_ == idle` (the value 1;
//   envelopes are cache-line aligned, so no envelope has that address) means idle, and an
//   idle mailbox holds no envelope at all. So a send appends and learns whether the actor
//   was idle with one exchange; going idle is one CAS, and hands the last dummy back to the
//   worker that owned the actor (it stays in that worker's cache); and the first message to
//   an idle actor links onto nothing, so it does not touch the line of an envelope another
//   core consumed last (one cache-line transfer less per message that crosses cores). An
//   idle actor costs no envelope.
//
// Invariants
//   - owned (not idle): `head_` is the dummy, whose message was already consumed, unless
//     `own_ == fresh`: then head_'s own message is still to pop. The unconsumed messages are
//     the owner's list (below) if any, then head_ (if fresh), head_->next ... tail_.
//   - `head_` and `own_` are written only by the owner: the consumer, or the pusher or
//     claimer that just took the actor from idle, before it hands the actor on.
//   - `tail_` is the last envelope pushed, or `idle`.
//   - `own_` is 0, `fresh`, or the last envelope of the owner's list; never both a list and
//     fresh (an owner push needs the shared list empty, and fresh means it holds one).
//
// Protocol
//   push(n): 1. n.next = null (relaxed; n is private to the producer)
//            2. prev = tail_.exchange(n, acq_rel)  -- the linearization point
//            3. prev == idle: the pusher owns the actor: head_ = n, own_ = fresh; it must
//               schedule the actor (through the policy, which publishes these writes)
//            4. else prev.next.store(n, release)   -- publishes n; pairs with pop's acquire
//   push_owned(n) (the owner, sending to the actor it owns: worker.hpp's held actor):
//            1. the shared list is empty (tail_ == head_, relaxed, and not fresh); else
//               refuse: the caller pushes as any producer does
//            2. append n to the owner's list: plain writes, no read-modify-write
//   pop():   0. the owner's list first: its oldest message, which the caller recycles
//            1. fresh: the message is head_'s; own_ = 0; nothing is spent
//            2. next = head_.next (acquire)
//            3. next present: head_ = next; the message is next's; the old head is spent
//            4. next missing: empty if tail_ == head_, else `busy` (a producer sits between
//               its steps 2 and 4: not yet poppable; the caller reschedules the actor)
//   go idle (the owner, after pop said empty; never with the owner's list non-empty):
//            CAS tail_ from head_ to idle (acq_rel). On success head_ is spent (no
//            producer can reach it any more: every later push sees `idle`); on failure a
//            push came in since: the owner keeps the actor.
//   claim (take an idle actor without a message: donation): CAS tail_ from idle to a dummy
//            the claimer brings; the claimer then sets head_ = dummy.
//   Why it is correct: the exchange in push step 2 totally orders all pushes, the links
//   form that order, and the consumer walks the links once, so every message is popped
//   exactly once and one sender's messages in send order. Going idle, claiming and pushing
//   are read-modify-writes of the one word `tail_`, so they are totally ordered too: a push
//   either comes before the owner's CAS (which then fails: the owner runs on) or after it
//   (the push sees `idle` and takes the actor). Exactly one party owns a non-idle actor.
//   The release half of the idle CAS and the acquire half of the push's exchange hand the
//   actor's state from its last owner to the pusher, which passes it on through the policy.
//
// The owner's list (push_owned): one sender's order across the two lists
//   A sender's messages must come out in send order; popping the owner's list first keeps
//   it, because no sender ever has a message in the shared list older than one in the
//   owner's list. An owner push from actor S happens on the worker that owns both S (it is
//   running) and the receiver; any earlier send of S's happened before it (S's turns are
//   ordered by the hand-overs of S), so step 1's load sees that send's exchange or a later
//   one: the shared list is empty only if the receiver consumed it already. Sends after the
//   owner push, from anywhere, land behind it in pop order whichever list takes them. The
//   owner's list goes wherever the actor goes: it is owner state like head_, published by
//   the policy's hand-over. An actor does not go idle with it non-empty (`try_idle` refuses),
//   and `empty`, `pushed_since_empty` and `backlog` count it. Why: a message to an actor
//   the sending worker holds (pingpong's reply) then costs no locked instruction; the
//   exchange's full barrier was half the cost of such a message on one core.
//
// Taking messages out from the newest end (donation; consumer only)
//   A producer writes exactly one link: `prev.next`, where prev was the tail when it
//   exchanged. So once a node's `next` is non-null, no producer will ever write that link
//   again, and no producer touches the node at all (it is not the tail, and the tail never
//   returns to it before it is recycled). The consumer may therefore unlink any node whose
//   `next` it has seen non-null, by re-linking its predecessor to its successor: only the
//   consumer reads links before head_->next... tail_, and it is the one writing them.
//   `take_newest` walks at most `scan` messages, never unlinks the last one it reached
//   (it may be the tail, which producers link onto), and never touches head_ or tail_, so
//   going idle and claiming are unaffected. Unlinked nodes are
//   the caller's; their messages left this mailbox exactly once.
#pragma once
#include <atomic>  // std::memory_order only
#include <cstddef>
#include <cstdint>

#include "envelope.hpp"

namespace twinsched {

template <class P>
class mailbox {
 public:
  using node = envelope<P>;

  /// A new mailbox is idle and holds no envelope.
  mailbox() = default;
  mailbox(const mailbox&) = delete;
  mailbox& operator=(const mailbox&) = delete;

  /// Any thread. True if the actor was idle: the caller now owns it and must schedule it.
  bool push(node* n) {
    n->next.store(nullptr, std::memory_order_relaxed);
    const std::uintptr_t prev = tail_.exchange(tag(n), std::memory_order_acq_rel);  // step 2
    if (prev == idle) {                                                             // step 3
      head_ = n;
      own_ = fresh;
      return true;
    }
    untag(prev)->next.store(n, std::memory_order_release);  // step 4
    return false;
  }

  /// The owner only (a worker sending to an actor it owns, from another actor's turn): queues
  /// `n` with plain writes if nothing waits in the shared list (the header: one sender's
  /// order). False: refused, nothing changed; the caller pushes `n` as usual.
  bool push_owned(node* n) {
    if (own_ == fresh || tail_.load(std::memory_order_relaxed) != tag(head_)) return false;  // step 1
    node* const last = untag(own_);  // step 2: a ring through `next`; own_ is its newest
    n->next.store(last ? last->next.load(std::memory_order_relaxed) : n, std::memory_order_relaxed);
    if (last) last->next.store(n, std::memory_order_relaxed);
    own_ = tag(n);
    return true;
  }

  /// Owner only, after pop returned `empty`: true if the actor is now idle, and then `spent`
  /// is the last dummy, to recycle; false if a push came in since (the owner keeps it).
  bool try_idle(node*& spent) {
    if (own_ != 0) return false;  // the owner's list holds mail (never fresh after an empty pop)
    node* const last = head_;
    std::uintptr_t expected = tag(last);
    // release: publishes the owner's writes to whoever takes the actor next (their
    // exchange or claim acquires); acquire on failure: the new links are read with acquire anyway
    if (!tail_.compare_exchange_strong(expected, idle, std::memory_order_acq_rel, std::memory_order_acquire))
      return false;
    // Not ours any more: a pusher may be writing head_ already. Touch nothing after the CAS.
    spent = last;
    return true;
  }

  /// Anyone: takes an idle actor, with `dummy` (the caller's envelope) as its dummy. True:
  /// the caller owns the actor now, with no message queued; false: `dummy` is still the caller's.
  bool try_claim(node* dummy) {
    if (tail_.load(std::memory_order_relaxed) != idle) return false;  // a hint; the CAS decides
    dummy->next.store(nullptr, std::memory_order_relaxed);
    std::uintptr_t expected = idle;
    // acquire: pairs with try_idle's release (the last owner's writes); release: dummy's link
    if (!tail_.compare_exchange_strong(expected, tag(dummy), std::memory_order_acq_rel, std::memory_order_relaxed))
      return false;
    head_ = dummy;  // pushes after the CAS link onto dummy; none reads head_
    own_ = 0;
    return true;
  }

  enum class pop_status { item, empty, busy };

  /// Consumer only. On `item`, `out` holds the message (valid until the next pop) and
  /// `spent`, if not null, is an envelope no longer referenced by the mailbox, to recycle once
  /// `out` is no longer needed: it may be `out` itself (a message of the owner's list).
  pop_status pop(node*& out, node*& spent) {
    if (own_ != 0) {
      if (own_ == fresh) {  // step 1
        own_ = 0;
        out = head_;
        spent = nullptr;
        return pop_status::item;
      }
      node* const last = untag(own_);  // step 0: the ring's oldest is last->next
      node* const first = last->next.load(std::memory_order_relaxed);
      if (first == last) own_ = 0;
      else last->next.store(first->next.load(std::memory_order_relaxed), std::memory_order_relaxed);
      out = spent = first;
      return pop_status::item;
    }
    node* head = head_;
    node* next = head->next.load(std::memory_order_acquire);  // step 2, pairs with push step 4
    if (next == nullptr) return tail() == head ? pop_status::empty : pop_status::busy;
    head_ = next;  // step 3
    out = next;
    spent = head;
    return pop_status::item;
  }

  /// The owner, or anyone once the run is quiescent: true if nothing pushed is left unpopped.
  /// Reads what a failing pop reads, in the same order (the simulator charges both alike).
  bool empty() const {
    if (own_ != 0) return false;
    if (head_ == nullptr) return true;  // never had a message: idle
    // idle: head_ is stale (it went back to a pool) but still an envelope; its link is
    // read and ignored, since tail_ then says idle
    const bool linked = head_->next.load(std::memory_order_acquire) != nullptr;  // pairs with push step 4
    const std::uintptr_t t = tail_.load(std::memory_order_acquire);
    return t == idle || (!linked && untag(t) == head_);
  }

  /// Owner only, after a pop said `empty` (and nothing popped since): true if a push came in
  /// since. Relaxed: a hint; false is confirmed by try_idle's CAS, and true hands the actor
  /// on, whose next pop reads the links with acquire (and reports `busy` mid-push).
  bool pushed_since_empty() const { return own_ != 0 || tail_.load(std::memory_order_relaxed) != tag(head_); }

  /// Consumer only: messages poppable now, counting at most `limit`.
  std::size_t backlog(std::size_t limit) const {
    std::size_t n = own_ == fresh ? 1 : 0;
    if (node* const last = own_ == fresh ? nullptr : untag(own_)) {  // the owner's ring
      for (node* p = last->next.load(std::memory_order_relaxed); n < limit; p = p->next.load(std::memory_order_relaxed)) {
        ++n;
        if (p == last) break;
      }
    }
    for (node* p = head_->next.load(std::memory_order_acquire); p && n < limit;  // pairs with push step 3
         p = p->next.load(std::memory_order_acquire))
      ++n;
    return n;
  }

  /// Consumer only: unlinks up to `want` messages for which `eligible(msg)` holds, newest
  /// first, among the first `scan` (<= max_scan) messages, never the last one reached (see
  /// the header). Writes them to `out` oldest first; returns how many.
  static constexpr std::size_t max_scan = 256;
  template <class Eligible>
  std::size_t take_newest(std::size_t scan, std::size_t want, Eligible&& eligible, node** out) {
    node* chain[max_scan + 1];
    bool gone[max_scan + 1] = {};
    if (scan > max_scan) scan = max_scan;
    std::size_t k = 0;
    chain[0] = head_;  // a fresh head_ is never taken: it is chain[0]; nor is the owner's list
    for (node* p = head_->next.load(std::memory_order_acquire); p && k < scan;  // pairs with push step 3
         p = p->next.load(std::memory_order_acquire))
      chain[++k] = p;
    std::size_t taken = 0;
    for (std::size_t i = k; i-- > 1 && taken < want;)  // chain[k] stays
      if (eligible(chain[i]->msg)) gone[i] = true, ++taken;
    if (taken == 0) return 0;
    node* prev = chain[0];
    std::size_t o = 0;
    for (std::size_t i = 1; i <= k; ++i) {
      if (gone[i]) {
        out[o++] = chain[i];
        continue;
      }
      // relaxed load: a link this walk already read with acquire; release store: a later
      // consumer (after a hand-over of the actor) reads the new link with pop's acquire
      if (prev->next.load(std::memory_order_relaxed) != chain[i]) prev->next.store(chain[i], std::memory_order_release);
      prev = chain[i];
    }
    return taken;
  }

 private:
  static constexpr std::uintptr_t idle = 1;
  static std::uintptr_t tag(const node* n) { return reinterpret_cast<std::uintptr_t>(n); }
  static node* untag(std::uintptr_t t) { return reinterpret_cast<node*>(t); }
  /// The last envelope pushed (acquire: pairs with push step 2's release half). Owner only.
  node* tail() const { return untag(tail_.load(std::memory_order_acquire)); }

  static constexpr std::uintptr_t fresh = 1;  // own_: head_'s message is unconsumed

  node* head_ = nullptr;                                   // owner-written (see the invariants)
  typename P::template atomic<std::uintptr_t> tail_{idle};  // producers' exchange point; `idle`
  std::uintptr_t own_ = 0;  // owner-written: 0, `fresh`, or the owner's list's newest envelope
};

}  // namespace twinsched
