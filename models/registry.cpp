// The run-time catalogs, read off the registries' type lists. This file and the run pipelines
// are what a binary with policies of its own compiles with TWINSCHED_POLICY_REGISTRY
// (models/policy/policies.hpp).
#include "registry.hpp"

#include "idle/idle_strategy.hpp"
#include "policy/policies.hpp"

namespace twinsched {
namespace {

template <class I, class Entry>
Entry entry_of() {
  Entry e{I::name, I::description, {}, nullptr};
  if constexpr (requires { I::knobs; }) e.knobs = I::knobs;
  if constexpr (requires { &I::check; }) e.check = &I::check;
  return e;
}

template <template <class> class... Ps>
std::vector<policy_entry> policies_of(policy_list<Ps...>) {
  return {entry_of<policy_info<Ps>, policy_entry>()...};
}
template <class... Ss>
std::vector<idle_entry> strategies_of(idle_list<Ss...>) {
  return {entry_of<Ss, idle_entry>()...};
}

template <class Entry>
std::vector<std::string> names_of(const std::vector<Entry>& v) {
  std::vector<std::string> names;
  for (const Entry& e : v) names.push_back(e.name);
  return names;
}

template <class Entry>
const Entry* find_in(const std::vector<Entry>& v, const std::string& name) {
  for (const Entry& e : v)
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace

const std::vector<policy_entry>& policy_catalog() {
  static const std::vector<policy_entry> v = policies_of(registered_policies{});
  return v;
}
const std::vector<idle_entry>& idle_catalog() {
  static const std::vector<idle_entry> v = strategies_of(idle_strategies{});
  return v;
}
const policy_entry* find_policy(const std::string& name) { return find_in(policy_catalog(), name); }
const idle_entry* find_idle(const std::string& name) { return find_in(idle_catalog(), name); }

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> v = names_of(policy_catalog());
  return v;
}
const std::vector<std::string>& idle_names() {
  static const std::vector<std::string> v = names_of(idle_catalog());
  return v;
}

}  // namespace twinsched
