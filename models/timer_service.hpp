// Timers: messages sent to arrive later, kept in one heap and delivered by one service the runtime owns.
//
// Overview
//   context::send_after(to, m, delay) sets a timer. The message is counted sent at once, so a
//   run is not quiescent while a timer waits (scheduler.hpp's argument holds unchanged: the
//   message is processed only after it is delivered). The timer waits in a binary min-heap
//   ordered by (deadline, order of setting): no pointer is a key, so the simulator delivers
//   timers with equal deadlines in the same order in every run. One service per run (platform
//   contract 18: a thread of its own on real cores; an S4U actor off the modeled cores in
//   simulation) waits in a parker for the earliest deadline and hands each due message to the
//   scheduler, which delivers it as the injector does: into the mailbox, and to the policy
//   from outside (push from -1), which wakes a worker. A workload that sets timers says so
//   (workload::uses_timers); the service runs only then.
//
// Protocol (heap_ and stop_ under mutex_; the parker is the service's alone)
//   setter:  lock; push; earliest = (it is the heap's top now); unlock; if earliest: unpark
//   service: lock; if stop_: leave. If the heap is empty: unlock, park. If the top is due:
//            pop it, unlock, deliver it, look again. Else: unlock, park_for(top - now).
//   Why no timer waits past its deadline: a setter whose timer is the new earliest unparks
//   after its push; the parker keeps that token if the service has not parked yet (contract
//   3), so a service that read the old top and is about to park returns at once and looks
//   again. A later timer needs no wake-up: the service wakes for the earlier one first.
//   Stop: the scheduler's finish() calls stop() (stop_ under the lock, then unpark). At
//   quiescence the heap is empty: every timer's message was counted sent and processed.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "platform.hpp"

namespace twinsched {

/// What the service hands to the scheduler: the envelope `what` for actor `to`, of type E.
template <class E, class Cell>
struct timer_entry {
  std::uint64_t deadline_ns;
  std::uint64_t order;  ///< the n-th timer set in the run: ties on the deadline go first-set first
  Cell* to;
  E* what;
  bool stamp;  ///< overwrite the message's `b` with the time it is delivered (send_after)
};

template <platform P, class E, class Cell>
class timer_service {
 public:
  using entry = timer_entry<E, Cell>;

  /// Sets a timer (any worker, or the injector before the run).
  void add(std::uint64_t deadline_ns, Cell& to, E* what, bool stamp) {
    bool earliest;
    {
      lock_guard g(mutex_);
      heap_.push_back(entry{deadline_ns, next_order_++, &to, what, stamp});
      std::push_heap(heap_.begin(), heap_.end(), later);
      earliest = heap_.front().order == next_order_ - 1;
    }
    if (earliest) wake_.unpark();
  }

  /// The service's loop: delivers each timer when due through `deliver(entry&)`, until stop().
  template <class Deliver>
  void serve(P& plat, Deliver&& deliver) {
    for (;;) {
      mutex_.lock();
      if (stop_) {
        mutex_.unlock();
        return;
      }
      if (heap_.empty()) {
        mutex_.unlock();
        wake_.park();
        continue;
      }
      const std::uint64_t now = plat.now_ns(), due = heap_.front().deadline_ns;
      if (due > now) {
        mutex_.unlock();
        wake_.park_for(due - now);
        continue;
      }
      std::pop_heap(heap_.begin(), heap_.end(), later);
      entry e = heap_.back();
      heap_.pop_back();
      mutex_.unlock();
      const std::uint64_t late = now - due;
      late_max_ = std::max(late_max_, late);
      late_sum_ += late;
      ++delivered_;
      deliver(e);
    }
  }

  /// Ends serve() (the run is over).
  void stop() {
    {
      lock_guard g(mutex_);
      stop_ = true;
    }
    wake_.unpark();
  }

  /// After the run: timers delivered, and how late the service was (its clock's precision).
  std::uint64_t delivered() const { return delivered_; }
  std::uint64_t late_max_ns() const { return late_max_; }
  double late_mean_ns() const { return delivered_ ? double(late_sum_) / double(delivered_) : 0; }

 private:
  /// std::push_heap's order for a min-heap: `a` after `b`.
  static bool later(const entry& a, const entry& b) {
    return a.deadline_ns != b.deadline_ns ? a.deadline_ns > b.deadline_ns : a.order > b.order;
  }

  typename P::mutex mutex_;
  std::vector<entry> heap_;
  std::uint64_t next_order_ = 0;
  bool stop_ = false;
  typename P::parker wake_;
  std::uint64_t delivered_ = 0, late_sum_ = 0, late_max_ = 0;  // the service's own
};

}  // namespace twinsched
