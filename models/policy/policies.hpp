// Every policy by name: turns a policy name from a scenario into the policy type the scheduler is built with.
#pragma once
#include <string>

#include "../config.hpp"
#include "adaptive.hpp"
#include "distribution.hpp"
#include "donation.hpp"
#include "shared_queue.hpp"
#include "sharing.hpp"
#include "stealing.hpp"

namespace twinsched {

/// Calls `f.template operator()<Policy>()` with the policy named `name` over platform P.
template <class P, class F>
decltype(auto) with_policy(const std::string& name, F&& f) {
  if (name == shared_queue_policy<P>::name) return f.template operator()<shared_queue_policy<P>>();
  if (name == distribution_policy<P>::name) return f.template operator()<distribution_policy<P>>();
  if (name == sharing_policy<P>::name) return f.template operator()<sharing_policy<P>>();
  if (name == stealing_policy<P>::name) return f.template operator()<stealing_policy<P>>();
  if (name == donation_policy<P>::name) return f.template operator()<donation_policy<P>>();
  if (name == adaptive_policy<P>::name) return f.template operator()<adaptive_policy<P>>();
  throw config_error("unknown policy '" + name + "'");
}

}  // namespace twinsched
