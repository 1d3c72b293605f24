// The policy registry of the test's twinsched (cmake/policy_registry.cmake): the stock policies
// and one more. This line is what registering a policy of one's own takes.
#pragma once
#include "locked_lifo.hpp"

namespace twinsched {
using registered_policies = stock_policies::with<locked_lifo_policy>;
}  // namespace twinsched
