// A deliberately broken policy for the hang fixtures: it forgets every actor a worker makes runnable.
//
// Only the injector's pushes (the workload's first messages) are queued; an actor made
// runnable by a worker is dropped, its messages left in its mailbox. With the `park` idle
// strategy every worker then parks for good while the run is not quiescent: a hang, on
// purpose, to show that a deadline (threads) or the time limit (simulation) turns it into
// a failure that prints the state. Test-only: models/ has no bug switches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/config.hpp"
#include "models/parking.hpp"
#include "models/policy/locked_fifo.hpp"
#include "models/policy/policy.hpp"
#include "models/run_result.hpp"

namespace twinsched::testing {

template <class P>
class forgetful_policy {
 public:
  static constexpr const char* name = "forgetful";
  static constexpr policy_caps caps{};
  explicit forgetful_policy(const policy_setup<P>& s) : park_(s.park) {}
  void on_spawn(actor_cell<P>&, int) {}
  void push(int from, actor_cell<P>& a, push_reason) {
    if (from >= 0) {
      forgotten_.fetch_add(1, std::memory_order_relaxed);  // a count nobody orders by
      return;
    }
    queue_.push(a);
    park_.wake_one(from);
  }
  actor_cell<P>* pop(unsigned, worker_stats&) { return queue_.pop(); }
  bool has_work(unsigned) const { return queue_.size() != 0; }
  std::size_t queued() const { return queue_.size(); }
  void add_stats(unsigned, worker_stats&) const {}
  void describe(std::string& out) const {
    out += "  queue: ";
    queue_.describe(out);
    out += "\n";
  }

 private:
  parking<P>& park_;
  locked_fifo<P> queue_;
  typename P::template atomic<std::uint64_t> forgotten_{0};
};

}  // namespace twinsched::testing
