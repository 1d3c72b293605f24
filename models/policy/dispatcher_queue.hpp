// One dispatcher's queue of pending actors: a locked FIFO any worker may push to, which can be closed when its dispatcher retires.
//
// Used by the policies that bind actors to dispatchers (distribution, sharing, adaptive).
// Like locked_fifo it links actors through `next_runnable` (an actor is in at most one run
// queue: actor.hpp's invariant) and keeps `size_` readable without the lock, for the
// parking re-check (parking.hpp sleeper step 2) and for cheap load estimates. A stale read
// of `size_` is only a hint; every decision that matters is re-taken under the lock.
//
// Closing (adaptive): `close_and_take` marks the queue closed and hands back everything in
// it; from then on `push_if_open` refuses, so a pusher that raced the close learns it under
// the same lock and must look up the new destination (which the closer published before
// closing). `reopen` makes the queue usable again when its slot gets a new thread.
#pragma once
#include <cstddef>

#include "../actor.hpp"
#include "../platform.hpp"
#include "queue_report.hpp"

namespace twinsched {

template <class P>
class dispatcher_queue {
 public:
  using cell = actor_cell<P>;

  // Each push and pop charges P::queue_op() (platform.hpp contract 11), as locked_fifo does,
  // so that in simulation these queues cost what the shared queue costs.
  void push(cell& a) {
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    link(a);
  }

  /// False (and nothing pushed) if the queue is closed.
  bool push_if_open(cell& a) {
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    if (closed_) return false;
    link(a);
    return true;
  }

  cell* pop() {
    if (size_.load(std::memory_order_acquire) == 0) return nullptr;  // pairs with link's release
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    cell* a = head_;
    if (!a) return nullptr;
    head_ = a->next_runnable;
    if (!head_) tail_ = nullptr;
    size_.store(size_.load(std::memory_order_relaxed) - 1, std::memory_order_release);  // as in link()
    return a;
  }

  /// Everything queued, as a list linked through next_runnable (oldest first); empties the queue.
  cell* take_all() {
    lock_guard g(mutex_);
    return unlink_all();
  }

  /// Closes the queue and returns what it held (see the header).
  cell* close_and_take() {
    lock_guard g(mutex_);
    closed_ = true;
    return unlink_all();
  }

  void reopen() {
    lock_guard g(mutex_);
    closed_ = false;
  }

  std::size_t size() const { return size_.load(std::memory_order_acquire); }  // pairs with link's release

  /// Hang report: "<size> [ids]" (queue_report.hpp: no lock, a snapshot).
  void describe(std::string& out) const { append_queue<P>(out, head_, size(), 8); }

 private:
  void link(cell& a) {
    a.next_runnable = nullptr;
    (tail_ ? tail_->next_runnable : head_) = &a;
    tail_ = &a;
    // under the lock, so relaxed reads our own last write; release pairs with the acquire
    // in pop() and size() (a reader that sees the count sees the link)
    size_.store(size_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  cell* unlink_all() {
    cell* all = head_;
    head_ = tail_ = nullptr;
    size_.store(0, std::memory_order_release);  // pairs with the acquire in pop() and size()
    return all;
  }

  typename P::mutex mutex_;
  cell* head_ = nullptr;
  cell* tail_ = nullptr;
  bool closed_ = false;
  typename P::template atomic<std::size_t> size_{0};
};

}  // namespace twinsched
