// Names of policies, idle strategies and trace levels, and the checks a configuration must pass.
#include "config.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace twinsched {

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> v{"shared-queue", "distribution", "sharing", "stealing", "donation", "adaptive"};
  return v;
}
const std::vector<std::string>& idle_names() {
  static const std::vector<std::string> v{"busy-spin", "noop", "yield", "sleep", "backoff", "park"};
  return v;
}
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
  if (c.steal != "one" && c.steal != "half")
    throw config_error("steal must be \"one\" or \"half\", not '" + c.steal + "'");
  if (c.workers == 0 || c.workers > 1024) throw config_error("workers must be between 1 and 1024");
  if (c.burst == 0) throw config_error("burst must be at least 1");
  // named as the scenario file's keys are, in microseconds
  auto us = [](std::uint64_t ns) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", double(ns) / 1000);
    return std::string(b);
  };
  if (c.idle.min_park_ns == 0) throw config_error("idle: min_park_us must be positive");
  if (c.idle.max_park_ns < c.idle.min_park_ns)
    throw config_error("idle: max_park_us (" + us(c.idle.max_park_ns) + ") must be at least min_park_us (" +
                       us(c.idle.min_park_ns) + ")");
  if (c.idle.sleep_ns == 0) throw config_error("idle: sleep_us must be positive");
  const workload_info* w = find_workload(s.workload);
  if (!w) throw config_error("unknown workload '" + s.workload + "'");

  // Policy knobs: checked whatever the policy, so a typo'd scenario fails before it is reused.
  if (c.donate_threshold == 0) throw config_error("donate_threshold must be at least 1");
  if (c.overload_after == 0) throw config_error("overload_after must be at least 1");
  if (c.retire_after_ns == 0) throw config_error("retire_after must be positive");
  if (c.min_workers == 0) throw config_error("min_workers must be at least 1");
  if (c.max_workers > 1024) throw config_error("max_workers must be at most 1024");
  if (c.max_workers != 0 && c.min_workers > c.max_workers)
    throw config_error("min_workers (" + std::to_string(c.min_workers) + ") must not exceed max_workers (" +
                       std::to_string(c.max_workers) + ")");
  if (c.policy == "adaptive") {
    if (c.workers < c.min_workers)
      throw config_error("adaptive: workers (" + std::to_string(c.workers) + ") must be at least min_workers (" +
                         std::to_string(c.min_workers) + ")");
    if (c.max_workers != 0 && c.workers > c.max_workers)
      throw config_error("adaptive: workers (" + std::to_string(c.workers) + ") must not exceed max_workers (" +
                         std::to_string(c.max_workers) + ")");
  }
  if (c.policy == "donation" && w->make) {
    // Groups are declared by the built workload (they may depend on its parameters);
    // building one only reads the parameters.
    if (!w->make(with_defaults(*w, s.workload_params), s.seed)->has_groups())
      throw config_error("donation needs a workload with a group of equal actors; '" + s.workload +
                         "' declares none (try workload \"pool\")");
  }
}

}  // namespace twinsched
