// The registries read at run time: every registered policy (models/policy/policies.hpp) and idle
// strategy (models/idle/idle_strategy.hpp) with its name, description, knobs and checks, in
// registry order. Names, validate(), scenario files, scenario text, flags and `twinsched list`
// all read these, so a policy or strategy is known everywhere once it is registered.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "config.hpp"
#include "knob.hpp"

namespace twinsched {

struct policy_entry {
  std::string name, description;
  std::span<const knob<scheduler_config>> knobs;
  void (*check)(const scenario&) = nullptr;  ///< what the knobs' ranges cannot say; when chosen
};

struct idle_entry {
  std::string name, description;
  std::span<const knob<idle_config>> knobs;
  void (*check)(const idle_config&) = nullptr;  ///< when chosen
};

const std::vector<policy_entry>& policy_catalog();
const std::vector<idle_entry>& idle_catalog();
/// The entry named `name`, or nullptr.
const policy_entry* find_policy(const std::string& name);
const idle_entry* find_idle(const std::string& name);

}  // namespace twinsched
