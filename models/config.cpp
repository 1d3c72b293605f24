// Trace level names, and the checks a configuration must pass (the knobs' from the registries).
#include "config.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "registry.hpp"

namespace twinsched {

const std::vector<std::string>& trace_level_names() {
  static const std::vector<std::string> v{"off", "decisions", "full"};
  return v;
}

namespace {
bool known(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}
std::string joined(const std::vector<std::string>& v) {
  std::string r;
  for (auto& s : v) r += (r.empty() ? "" : ", ") + s;
  return r;
}
/// The knob's range, whatever the policy or strategy chosen: a typo'd scenario fails before it is reused.
template <class C>
void check_knob(const knob<C>& k, const C& c, const std::string& prefix) {
  const std::string key = prefix + k.key;
  if (k.is_number()) {
    const std::uint64_t v = k.number(c);
    if (v < k.min) throw knob_error(key, "", key + " must be at least " + std::to_string(k.min));
    if (v > k.max) throw knob_error(key, "", key + " must be at most " + std::to_string(k.max));
  } else if (k.text) {
    const std::string& v = c.*k.text;
    const std::string bars = std::string("|") + k.choices + "|";
    if (v.empty() || v.find('|') != std::string::npos || bars.find("|" + v + "|") == std::string::npos)
      throw knob_error(key, "", key + " must be one of " + k.choices + ", not '" + v + "'");
  }
}
}  // namespace

const std::string& level_name(trace_level l) { return trace_level_names().at(std::size_t(l)); }

trace_level level_from_name(const std::string& name) {
  const auto& v = trace_level_names();
  const auto at = std::find(v.begin(), v.end(), name);
  if (at == v.end()) throw std::invalid_argument("unknown trace level '" + name + "' (known: " + joined(v) + ")");
  return trace_level(at - v.begin());
}

void validate(const scenario& s) {
  const auto& c = s.sched;
  if (!known(policy_names(), c.policy))
    throw config_error("unknown policy '" + c.policy + "' (known: " + joined(policy_names()) + ")");
  if (!known(idle_names(), c.idle.strategy))
    throw config_error("unknown idle strategy '" + c.idle.strategy + "' (known: " + joined(idle_names()) + ")");
  if (c.workers == 0 || c.workers > workers_limit)
    throw config_error("workers must be between 1 and " + std::to_string(workers_limit));
  if (c.burst == 0) throw config_error("burst must be at least 1");
  for (const idle_entry& e : idle_catalog())
    for (const auto& k : e.knobs) check_knob(k, c.idle, "scheduler.idle.");
  if (const idle_entry* e = find_idle(c.idle.strategy); e->check) e->check(c.idle);
  if (!find_workload(s.workload)) throw config_error("unknown workload '" + s.workload + "'");
  for (const policy_entry& e : policy_catalog())
    for (const auto& k : e.knobs) check_knob(k, c, "scheduler.");
  if (const policy_entry* e = find_policy(c.policy); e->check) e->check(s);
}

}  // namespace twinsched
