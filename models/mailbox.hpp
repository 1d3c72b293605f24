// An actor's mailbox: a lock-free multi-producer single-consumer FIFO of pooled envelopes.
//
// Overview
//   Dmitry Vyukov's MPSC queue, in its form with a consumer-owned dummy node. Producers
//   (any worker sending to the actor) append with one atomic exchange on `tail_`; the single
//   consumer (the worker running the actor; actor.hpp guarantees there is one) advances
//   `head_` with plain loads. The message popped stays in its envelope, which becomes the
//   new dummy; the previous dummy is handed back for recycling. A pop therefore costs no
//   read-modify-write, and a push costs one. An idle actor holds exactly one envelope.
//
// Invariants
//   - `head_` is the dummy: its message was already consumed (or never existed). The
//     unconsumed messages are those of head_->next ... tail_.
//   - `head_` is touched only by the consumer; `tail_` is the last envelope ever pushed.
//
// Protocol
//   push(n): 1. n.next = null (relaxed; n is private to the producer)
//            2. prev = tail_.exchange(n, seq_cst)  -- the linearization point; seq_cst
//               because the actor-state handshake (actor.hpp) orders it against a state load
//            3. prev.next.store(n, release)        -- publishes n; pairs with pop's acquire
//   pop():   1. next = head_.next (acquire)
//            2. next present: head_ = next; the message is next's; the old head is spent
//            3. next missing: empty if tail_ == head_, else `busy` (a producer sits between
//               its steps 2 and 3: not yet poppable; the caller reschedules the actor)
//   Why it is correct: the exchange in push step 2 totally orders all pushes, the links
//   form that order, and the consumer walks the links once, so every message is popped
//   exactly once and one sender's messages in send order.
#pragma once
#include <atomic>  // std::memory_order only

#include "envelope.hpp"

namespace twinsched {

template <class P>
class mailbox {
 public:
  using node = envelope<P>;

  /// `dummy` is an envelope the mailbox owns from now on (it is recycled by a later pop).
  explicit mailbox(node* dummy) : head_(dummy), tail_(dummy) { dummy->next.store(nullptr, std::memory_order_relaxed); }
  mailbox(const mailbox&) = delete;
  mailbox& operator=(const mailbox&) = delete;

  /// Any thread.
  void push(node* n) {
    n->next.store(nullptr, std::memory_order_relaxed);
    node* prev = tail_.exchange(n, std::memory_order_seq_cst);  // step 2
    prev->next.store(n, std::memory_order_release);             // step 3
  }

  enum class pop_status { item, empty, busy };

  /// Consumer only. On `item`, `out` holds the message (valid until the next pop) and
  /// `spent` is an envelope no longer referenced by the mailbox, to be recycled.
  pop_status pop(node*& out, node*& spent) {
    node* head = head_;
    node* next = head->next.load(std::memory_order_acquire);  // step 1, pairs with push step 3
    if (next == nullptr) return tail_.load(std::memory_order_acquire) == head ? pop_status::empty : pop_status::busy;
    head_ = next;  // step 2
    out = next;
    spent = head;
    return pop_status::item;
  }

  /// Consumer only: true if nothing pushed is left unpopped.
  bool empty() const {
    return head_->next.load(std::memory_order_acquire) == nullptr && tail_.load(std::memory_order_acquire) == head_;
  }

  /// Consumer only: the current dummy, to pass to `pushed_since` after giving the actor up.
  node* mark() const { return head_; }

  /// Anyone: has a producer pushed since the consumer, holding the dummy `m`, saw the mailbox
  /// empty? Reads only tail_, so a former consumer may ask. The seq_cst load pairs with push
  /// step 2 in the actor-state handshake (actor.hpp, release step 3). `m` cannot come back as
  /// tail_ before someone claims the actor: it is recycled only by a later consumer.
  bool pushed_since(const node* m) const { return tail_.load(std::memory_order_seq_cst) != m; }

 private:
  node* head_;                                  // consumer-owned
  typename P::template atomic<node*> tail_;     // producers' exchange point
};

}  // namespace twinsched
