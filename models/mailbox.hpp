// An actor's mailbox: a lock-free multi-producer single-consumer FIFO of pooled envelopes.
//
// Overview
//   Dmitry Vyukov's MPSC queue, in its form with a consumer-owned dummy node. Producers
//   (any worker sending to the actor) append with one atomic exchange on `tail_`; the single
//   consumer (the worker running the actor; actor.hpp guarantees there is one) advances
//   `head_` with plain loads. The message popped stays in its envelope, which becomes the
//   new dummy; the previous dummy is handed back for recycling. A pop therefore costs no
//   read-modify-write, and a push costs one. An idle actor holds exactly one envelope.
//   The actor's idle/scheduled state lives in `tail_` too (bit 0: idle; envelopes are
//   cache-line aligned), so a send both appends and learns whether the actor was idle
//   with that one exchange, and going idle is one CAS: two read-modify-writes per message
//   where a separate state word took three, and no seq_cst handshake between two words.
//
// Invariants
//   - `head_` is the dummy: its message was already consumed (or never existed). The
//     unconsumed messages are those of head_->next ... tail_.
//   - `head_` is touched only by the consumer; `tail_` is the last envelope ever pushed.
//   - `tail_` has the idle bit  <=>  the actor is idle: in no run queue, owned by no worker,
//     and nothing unconsumed (tail_ == head_ when the bit was set, and a push clears it).
//
// Protocol
//   push(n): 1. n.next = null (relaxed; n is private to the producer)
//            2. prev = tail_.exchange(n, acq_rel)  -- the linearization point; clears idle
//            3. untag(prev).next.store(n, release) -- publishes n; pairs with pop's acquire
//            4. if prev had the idle bit, the pusher now owns the actor and must schedule it
//   pop():   1. next = head_.next (acquire)
//            2. next present: head_ = next; the message is next's; the old head is spent
//            3. next missing: empty if tail_ == head_, else `busy` (a producer sits between
//               its steps 2 and 3: not yet poppable; the caller reschedules the actor)
//   go idle (the owner, after pop said empty): CAS tail_ from head_ to head_|idle (acq_rel).
//            Failure means a push came in since: the owner keeps the actor and runs it on.
//   claim (take an idle actor without a message: donation): CAS tail_ from t|idle to t.
//   Why it is correct: the exchange in push step 2 totally orders all pushes, the links
//   form that order, and the consumer walks the links once, so every message is popped
//   exactly once and one sender's messages in send order. Going idle, claiming and pushing
//   are read-modify-writes of the one word `tail_`, so they are totally ordered too: a push
//   either comes before the owner's CAS (which then fails: the owner runs on) or after it
//   (the push sees the idle bit and schedules). Exactly one party owns a non-idle actor.
//   The release half of the idle CAS and the acquire half of the push's exchange hand the
//   actor's state from its last owner to the pusher, which passes it on through the policy.
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

  /// `dummy` is an envelope the mailbox owns from now on (it is recycled by a later pop).
  /// The mailbox starts idle.
  explicit mailbox(node* dummy) : head_(dummy), tail_(tag(dummy) | idle_bit) {
    dummy->next.store(nullptr, std::memory_order_relaxed);
  }
  mailbox(const mailbox&) = delete;
  mailbox& operator=(const mailbox&) = delete;

  /// Any thread. True if the actor was idle: the caller now owns it and must schedule it.
  bool push(node* n) {
    n->next.store(nullptr, std::memory_order_relaxed);
    const std::uintptr_t prev = tail_.exchange(tag(n), std::memory_order_acq_rel);  // step 2
    untag(prev)->next.store(n, std::memory_order_release);                          // step 3
    return prev & idle_bit;                                                         // step 4
  }

  /// Owner only, after pop returned `empty`: true if the actor is now idle; false if a push
  /// came in since (the owner keeps it).
  bool try_idle() {
    std::uintptr_t expected = tag(head_);
    // release: publishes the owner's writes to whoever schedules the actor next (their
    // exchange or claim acquires); acquire on failure: the new links are read with acquire anyway
    return tail_.compare_exchange_strong(expected, expected | idle_bit, std::memory_order_acq_rel,
                                         std::memory_order_acquire);
  }

  /// Anyone: takes an idle actor (true: the caller owns it now, with no message queued).
  bool try_claim() {
    std::uintptr_t t = tail_.load(std::memory_order_relaxed);  // a hint; the CAS decides
    if (!(t & idle_bit)) return false;
    // acquire: pairs with try_idle's release (the last owner's writes)
    return tail_.compare_exchange_strong(t, t & ~idle_bit, std::memory_order_acq_rel, std::memory_order_relaxed);
  }

  enum class pop_status { item, empty, busy };

  /// Consumer only. On `item`, `out` holds the message (valid until the next pop) and
  /// `spent` is an envelope no longer referenced by the mailbox, to be recycled.
  pop_status pop(node*& out, node*& spent) {
    node* head = head_;
    node* next = head->next.load(std::memory_order_acquire);  // step 1, pairs with push step 3
    if (next == nullptr) return tail() == head ? pop_status::empty : pop_status::busy;
    head_ = next;  // step 2
    out = next;
    spent = head;
    return pop_status::item;
  }

  /// Consumer only: true if nothing pushed is left unpopped.
  bool empty() const {
    return head_->next.load(std::memory_order_acquire) == nullptr && tail() == head_;
  }

  /// Consumer only: messages poppable now, counting at most `limit`.
  std::size_t backlog(std::size_t limit) const {
    std::size_t n = 0;
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
    chain[0] = head_;
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
  static constexpr std::uintptr_t idle_bit = 1;
  static std::uintptr_t tag(const node* n) { return reinterpret_cast<std::uintptr_t>(n); }
  static node* untag(std::uintptr_t t) { return reinterpret_cast<node*>(t & ~idle_bit); }
  /// The last envelope pushed (acquire: pairs with push step 2's release half).
  node* tail() const { return untag(tail_.load(std::memory_order_acquire)); }

  node* head_;                                          // consumer-owned
  typename P::template atomic<std::uintptr_t> tail_;    // producers' exchange point, and the idle bit
};

}  // namespace twinsched
