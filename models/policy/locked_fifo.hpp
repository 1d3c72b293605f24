// A FIFO of runnable actors behind one platform mutex, linked through the actors themselves.
//
// The shared queue's global queue and the stealing policy's injector. `size_` lets
// workers skip the lock when the queue is empty; it is updated under the lock and read
// without it, so a reader may see a stale value: pop re-checks under the lock, and the
// parking protocol (parking.hpp) re-checks `size_` after announcing, which is ordered
// after the push by the waker's seq_cst fence.
#pragma once
#include <cstddef>

#include "../actor.hpp"
#include "../platform.hpp"
#include "queue_report.hpp"

namespace twinsched {

template <class P>
class locked_fifo {
 public:
  void push(actor_cell<P>& a) {
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    a.next_runnable = nullptr;
    (tail_ ? tail_->next_runnable : head_) = &a;
    tail_ = &a;
    size_.store(size_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }

  actor_cell<P>* pop() {
    if (size_.load(std::memory_order_acquire) == 0) return nullptr;  // pairs with push's release
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    actor_cell<P>* a = head_;
    if (!a) return nullptr;
    head_ = a->next_runnable;
    if (!head_) tail_ = nullptr;
    size_.store(size_.load(std::memory_order_relaxed) - 1, std::memory_order_release);
    return a;
  }

  std::size_t size() const { return size_.load(std::memory_order_acquire); }

  /// Hang report: "<size> [ids]" (queue_report.hpp: no lock, a snapshot).
  void describe(std::string& out) const { append_queue<P>(out, head_, size(), 8); }

 private:
  typename P::mutex mutex_;
  actor_cell<P>* head_ = nullptr;
  actor_cell<P>* tail_ = nullptr;
  typename P::template atomic<std::size_t> size_{0};
};

}  // namespace twinsched
