// The policy registry: the one list of the policies a binary knows. A policy is declared once,
// in its own header (its code and its policy_info: name, description, knobs, checks;
// policy_info.hpp), and registered by one line here. with_policy turns a scenario's policy name
// into the type the scheduler is built with; policy_catalog() (models/registry.hpp) reads the
// same list for names, validation, scenario files, flags and `twinsched list`.
//
// A binary of its own (a user's, or the test in tests/models/extra_policy/) adds policies
// without editing this file: it compiles the files that include this one (models/registry.cpp,
// the run pipelines) with TWINSCHED_POLICY_REGISTRY naming a header that includes its policies
// and defines `using registered_policies = stock_policies::with<its_policy, ...>;`
// (cmake/policy_registry.cmake does that for a CMake target).
#pragma once
#include <string>

#include "../config.hpp"
#include "adaptive.hpp"
#include "distribution.hpp"
#include "donation.hpp"
#include "policy_info.hpp"
#include "shared_queue.hpp"
#include "sharing.hpp"
#include "stealing.hpp"

namespace twinsched {

using stock_policies =
    policy_list<shared_queue_policy, distribution_policy, sharing_policy, stealing_policy, donation_policy, adaptive_policy>;

}  // namespace twinsched

#ifdef TWINSCHED_POLICY_REGISTRY
#include TWINSCHED_POLICY_REGISTRY
#else
namespace twinsched {
using registered_policies = stock_policies;
}  // namespace twinsched
#endif

namespace twinsched {
namespace detail {
template <class P, class F, template <class> class First, template <class> class... Rest>
decltype(auto) with_policy_from(const std::string& name, F& f) {
  if (name == policy_info<First>::name) return f.template operator()<First<P>>();
  if constexpr (sizeof...(Rest) > 0) return with_policy_from<P, F, Rest...>(name, f);
  else throw config_error("unknown policy '" + name + "'");
}
template <class P, class F, template <class> class... Ps>
decltype(auto) with_policy_in(policy_list<Ps...>, const std::string& name, F& f) {
  return with_policy_from<P, F, Ps...>(name, f);
}
}  // namespace detail

/// Calls `f.template operator()<Policy>()` with the registered policy named `name` over platform P.
template <class P, class F>
decltype(auto) with_policy(const std::string& name, F&& f) {
  return detail::with_policy_in<P>(registered_policies{}, name, f);
}

}  // namespace twinsched
