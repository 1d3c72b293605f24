// Policy `distribution`: actors are assigned round robin to dispatchers, each with its own queue of pending actors; no balancing at all.
//
// Every new actor gets a home dispatcher, round robin over the workers, when it is spawned
// (`actor::home`). An actor made runnable, by a message or because it used up its burst,
// goes onto its home dispatcher's queue and only that dispatcher runs it. So the work a
// worker does is fixed by where its actors were placed: cheap and cache-friendly when the
// load is even, and helpless when it is not (a worker whose actors are all idle sits idle
// while another has a backlog). That is the point of having it: the baseline the balancing
// policies (sharing, stealing, adaptive) are measured against.
//
// Wake-ups: a push onto another dispatcher's queue wakes that dispatcher with the strict
// `wake` (parking.hpp); a push onto the pusher's own queue wakes nobody, because no other
// worker may run that actor and the pusher will.
// `home` is read and written only by whoever holds the actor's scheduled state (actor.hpp):
// the claimant of a send, or the worker running it; it never changes in this policy.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../parking.hpp"
#include "../run_result.hpp"
#include "dispatcher_queue.hpp"
#include "policy.hpp"
#include "policy_info.hpp"

namespace twinsched {

template <class P>
class distribution_policy;

template <>
struct policy_info<distribution_policy> {
  static constexpr const char* name = "distribution";
  static constexpr const char* description =
      "actors pre-assigned round robin to workers, one queue each; no balancing";
};

template <class P>
class distribution_policy {
 public:
  static constexpr const char* name = policy_info<distribution_policy>::name;
  static constexpr policy_caps caps{};

  explicit distribution_policy(const policy_setup<P>& s) : park_(s.park), n_(s.config.workers) {
    for (unsigned i = 0; i < n_; ++i) queues_.push_back(std::make_unique<slot>());
  }

  /// Round robin; relaxed: a counter that orders nothing.
  void on_spawn(actor_cell<P>& a, int) { a.home = next_.fetch_add(1, std::memory_order_relaxed) % n_; }

  void push(int from, actor_cell<P>& a, push_reason) {
    unsigned d = a.home;
    queues_[d]->q.push(a);
    if (int(d) != from) park_.wake(d, from);
  }

  actor_cell<P>* pop(unsigned w, worker_stats&) { return queues_[w]->q.pop(); }
  bool has_work(unsigned w) const { return queues_[w]->q.size() != 0; }
  std::size_t queued() const {
    std::size_t n = 0;
    for (auto& s : queues_) n += s->q.size();
    return n;
  }
  void add_stats(unsigned, worker_stats&) const {}
  /// Hang report: each dispatcher's queue (queue_report.hpp).
  void describe(std::string& out) const {
    for (unsigned i = 0; i < n_; ++i) {
      out += "  queue of worker " + std::to_string(i) + ": ";
      queues_[i]->q.describe(out);
      out += "\n";
    }
  }

 private:
  struct alignas(64) slot {
    dispatcher_queue<P> q;
  };
  parking<P>& park_;
  unsigned n_;
  std::vector<std::unique_ptr<slot>> queues_;
  typename P::template atomic<std::uint32_t> next_{0};
};

}  // namespace twinsched
