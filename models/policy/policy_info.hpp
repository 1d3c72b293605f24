// What a policy tells the world besides its code: its name, one line saying what it does, its
// knobs, and the checks its configuration must pass. Declared once, beside the policy, as a
// specialization of policy_info; the registry (policies.hpp) lists the policies, and names,
// validation, scenario files, scenario text, flags and `twinsched list` all read from there.
//
//   template <class P> class lifo_policy;          // the policy, declared first
//   template <> struct policy_info<lifo_policy> {
//     static constexpr const char* name = "lifo";                // required
//     static constexpr const char* description = "one line";     // required
//     static constexpr knob<scheduler_config> knobs[] = {...};   // optional (models/knob.hpp)
//     static void check(const scenario&);                        // optional: what the knobs'
//   };                                                            //   ranges cannot say; throws
//                                                                 //   config_error
// The info does not depend on the platform, so a list of policies can be read without
// building one; the policy itself says `static constexpr const char* name =
// policy_info<lifo_policy>::name;` (the concept scheduling_policy asks for `name`).
#pragma once
#include "../config.hpp"
#include "../knob.hpp"

namespace twinsched {

template <template <class> class Policy>
struct policy_info;

/// A list of policy templates: the registry's shape (policies.hpp).
template <template <class> class... Policies>
struct policy_list {
  /// This list with more policies after it: how a binary registers its own.
  template <template <class> class... More>
  using with = policy_list<Policies..., More...>;
};

}  // namespace twinsched
