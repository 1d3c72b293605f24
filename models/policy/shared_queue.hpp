// Policy `shared-queue`: one global FIFO of runnable actors for all workers (the thread-pool-executor baseline).
#pragma once
#include <string>

#include "../config.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "locked_fifo.hpp"
#include "policy.hpp"
#include "policy_info.hpp"

namespace twinsched {

template <class P>
class shared_queue_policy;

template <>
struct policy_info<shared_queue_policy> {
  static constexpr const char* name = "shared-queue";
  static constexpr const char* description =
      "one global FIFO of runnable actors; the thread-pool baseline (contends on one queue)";
};

template <class P>
class shared_queue_policy {
 public:
  static constexpr const char* name = policy_info<shared_queue_policy>::name;
  static constexpr policy_caps caps{};

  explicit shared_queue_policy(const policy_setup<P>& s) : park_(s.park) {}

  void on_spawn(actor_cell<P>&, int) {}

  void push(int from, actor_cell<P>& a, push_reason) {
    queue_.push(a);
    // A worker pushing will pop the shared queue itself, so a hint suffices; outside
    // pushes (before the run) must not be missed.
    if (from >= 0) park_.wake_one_hint(from);
    else park_.wake_one(from);
  }

  actor_cell<P>* pop(unsigned, worker_stats&) { return queue_.pop(); }
  bool has_work(unsigned) const { return queue_.size() != 0; }
  std::size_t queued() const { return queue_.size(); }
  void add_stats(unsigned, worker_stats&) const {}
  /// Hang report: what is queued (queue_report.hpp).
  void describe(std::string& out) const {
    out += "  shared queue: ";
    queue_.describe(out);
    out += "\n";
  }

 private:
  parking<P>& park_;
  locked_fifo<P> queue_;
};

}  // namespace twinsched
