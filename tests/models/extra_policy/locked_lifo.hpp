// Policy `locked-lifo`, the registry's test policy: one global stack of runnable actors behind
// one platform mutex; a worker runs the actor made runnable last. Written as a user's policy is:
// this header (the policy and its policy_info) and one line in a registry header (registry.hpp
// beside it). Not a good scheduler: the oldest runnable actor waits while newer ones come.
#pragma once
#include <cstddef>
#include <string>

#include "models/policy/policy.hpp"
#include "models/policy/policy_info.hpp"
#include "models/policy/queue_report.hpp"

namespace twinsched {

template <class P>
class locked_lifo_policy;

template <>
struct policy_info<locked_lifo_policy> {
  static constexpr const char* name = "locked-lifo";
  static constexpr const char* description = "one global stack behind a lock; the newest runnable actor runs first (a test)";
};

template <class P>
class locked_lifo_policy {
 public:
  static constexpr const char* name = policy_info<locked_lifo_policy>::name;
  static constexpr policy_caps caps{};

  explicit locked_lifo_policy(const policy_setup<P>& s) : park_(s.park) {}

  void on_spawn(actor_cell<P>&, int) {}

  void push(int from, actor_cell<P>& a, push_reason) {
    {
      P::queue_op(queue_kind::locked);
      lock_guard g(mutex_);
      a.next_runnable = top_;
      top_ = &a;
      size_.store(size_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    }
    // Any worker may pop it: a worker pushing runs it itself if nobody does (a hint), an
    // outside push must wake one for sure.
    if (from >= 0) park_.wake_one_hint(from);
    else park_.wake_one(from);
  }

  actor_cell<P>* pop(unsigned, worker_stats&) {
    if (size_.load(std::memory_order_acquire) == 0) return nullptr;
    P::queue_op(queue_kind::locked);
    lock_guard g(mutex_);
    actor_cell<P>* a = top_;
    if (!a) return nullptr;
    top_ = a->next_runnable;
    size_.store(size_.load(std::memory_order_relaxed) - 1, std::memory_order_release);
    return a;
  }

  bool has_work(unsigned) const { return queued() != 0; }
  std::size_t queued() const { return size_.load(std::memory_order_acquire); }
  void add_stats(unsigned, worker_stats&) const {}
  void describe(std::string& out) const {
    out += "  locked stack: ";
    append_queue<P>(out, top_, queued(), 8);
    out += "\n";
  }

 private:
  parking<P>& park_;
  typename P::mutex mutex_;
  actor_cell<P>* top_ = nullptr;
  typename P::template atomic<std::size_t> size_{0};
};

}  // namespace twinsched
