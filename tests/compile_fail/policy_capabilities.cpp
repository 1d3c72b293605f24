// Compiled by ctest with -fsyntax-only: a policy that misdeclares a capability must not compile (policy.hpp's check_policy).
//
// VARIANT 0: a well-formed policy (the control: it must compile, so the failures below are
//            the checks', not a broken include).
// VARIANT 1: declares caps.observes_work and misspells after_message: must fail, naming the capability.
// VARIANT 2: declares on_idle without caps.observes_work (it would never be called): must fail.
// VARIANT 3: lacks describe(), a required hook: must fail, naming scheduling_policy.
#include "models/policy/locked_fifo.hpp"
#include "models/policy/policy.hpp"
#include "runtime/thread_platform.hpp"

using namespace twinsched;
using P = thread_platform;

struct test_policy {
  static constexpr const char* name = "test";
#if VARIANT == 1
  static constexpr policy_caps caps{.observes_work = true};
  void after_mesage(policy_port<P>&, actor_cell<P>&) {}
  void on_idle(policy_port<P>&) {}
#elif VARIANT == 2
  static constexpr policy_caps caps{};
  void on_idle(policy_port<P>&) {}
#else
  static constexpr policy_caps caps{.observes_work = true};
  void after_message(policy_port<P>&, actor_cell<P>&) {}
  void on_idle(policy_port<P>&) {}
#endif
  explicit test_policy(const policy_setup<P>&) {}
  void on_spawn(actor_cell<P>&, int) {}
  void push(int, actor_cell<P>& a, push_reason) { q.push(a); }
  actor_cell<P>* pop(unsigned, worker_stats&) { return q.pop(); }
  bool has_work(unsigned) const { return q.size() != 0; }
  std::size_t queued() const { return q.size(); }
  void add_stats(unsigned, worker_stats&) const {}
#if VARIANT != 3
  void describe(std::string&) const {}
#endif
  locked_fifo<P> q;
};

static_assert(check_policy<test_policy, P>());
