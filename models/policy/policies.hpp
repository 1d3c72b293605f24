// Every policy by name: turns a policy name from a scenario into the policy type the scheduler is built with.
#pragma once
#include <string>

#include "../config.hpp"
#include "shared_queue.hpp"
#include "stealing.hpp"

namespace twinsched {

/// Calls `f.template operator()<Policy>()` with the policy named `name` over platform P.
template <class P, class F>
decltype(auto) with_policy(const std::string& name, F&& f) {
  if (name == shared_queue_policy<P>::name) return f.template operator()<shared_queue_policy<P>>();
  if (name == stealing_policy<P>::name) return f.template operator()<stealing_policy<P>>();
  throw config_error("unknown policy '" + name + "'");
}

}  // namespace twinsched
