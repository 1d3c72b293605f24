// An actor's mailbox: an intrusive, lock-free, multi-producer single-consumer FIFO of envelopes.
//
// Overview
//   Dmitry Vyukov's intrusive MPSC queue. Producers (any worker sending to the actor)
//   append with one atomic exchange on `tail_`; the single consumer (the worker currently
//   running the actor; the actor state machine in actor.hpp guarantees there is one) pops
//   from `head_` without atomic read-modify-writes. Envelopes come from a pool, so a push
//   allocates nothing.
//
// Invariants
//   - `head_` is touched only by the consumer; `tail_` is the last node ever pushed.
//   - The list from `head_` through `next` links reaches `tail_` once every producer that
//     has exchanged `tail_` has also stored its link (step 3 below).
//   - `stub_` is in the list exactly when the queue has been drained to it.
//
// Protocol
//   push(n): 1. n.next = null (relaxed; n is private to the producer)
//            2. prev = tail_.exchange(n, seq_cst)       -- the linearization point; seq_cst
//               because the actor state handshake (actor.hpp) orders it against a state load
//            3. prev.next.store(n, release)             -- publishes n to the consumer
//   pop():   1. read head.next (acquire, pairs with push step 3); skip the stub if head is it
//            2. if the next node is missing but tail_ != head, a producer sits between its
//               steps 2 and 3: report `busy` (non-empty, not yet poppable); the caller
//               reschedules the actor instead of spinning
//            3. when popping the last node, re-insert the stub so head never overtakes tail
//   Why it is correct: linearization is the exchange in push step 2, a total order over all
//   producers, so pushes from one sender are popped in send order, and every pushed node is
//   popped exactly once (it becomes reachable from head after step 3 and head passes it once).
#pragma once
#include <atomic>  // std::memory_order only
#include <cstdint>

#include "envelope.hpp"

namespace twinsched {

template <class P>
class mailbox {
 public:
  mailbox() : head_(&stub_), tail_(&stub_) { stub_.next.store(nullptr, std::memory_order_relaxed); }
  mailbox(const mailbox&) = delete;
  mailbox& operator=(const mailbox&) = delete;

  /// Any thread. Returns nothing: whether the actor must be scheduled is the actor's business.
  void push(envelope_base<P>* n) {
    n->next.store(nullptr, std::memory_order_relaxed);
    envelope_base<P>* prev = tail_.exchange(n, std::memory_order_seq_cst);  // step 2 (seq_cst: actor.hpp)
    prev->next.store(n, std::memory_order_release);                          // step 3
  }

  enum class pop_status { item, empty, busy };

  /// Consumer only. On `item`, `out` is the oldest envelope.
  pop_status pop(envelope_base<P>*& out) {
    envelope_base<P>* head = head_;
    envelope_base<P>* next = head->next.load(std::memory_order_acquire);  // step 1
    if (head == &stub_) {
      if (next == nullptr) return tail_.load(std::memory_order_acquire) == &stub_ ? pop_status::empty : pop_status::busy;
      head_ = head = next;
      next = next->next.load(std::memory_order_acquire);
    }
    if (next != nullptr) {
      head_ = next;
      out = head;
      return pop_status::item;
    }
    if (head != tail_.load(std::memory_order_acquire)) return pop_status::busy;  // step 2
    push(&stub_);                                                                // step 3
    next = head->next.load(std::memory_order_acquire);
    if (next == nullptr) return pop_status::busy;  // a producer linked after head: not yet visible
    head_ = next;
    out = head;
    return pop_status::item;
  }

  /// Consumer only: true if nothing pushed is left unpopped.
  bool empty() const { return head_ == &stub_ && tail_.load(std::memory_order_acquire) == &stub_; }

  /// Anyone, after a pop returned `empty`: has a producer pushed since? Reads only tail_,
  /// so a former consumer may ask after giving the actor up. The seq_cst load pairs with
  /// push step 2 in the actor state handshake (actor.hpp, release step 3).
  bool pushed_since_drain() const { return tail_.load(std::memory_order_seq_cst) != &stub_; }

 private:
  envelope_base<P>* head_;                        // consumer-owned
  typename P::template atomic<envelope_base<P>*> tail_;  // producers' exchange point
  envelope_base<P> stub_;
};

}  // namespace twinsched
