// Names of policies, idle strategies and trace levels, and the checks a configuration must pass.
#include "config.hpp"

#include <algorithm>

namespace twinsched {

const std::vector<std::string>& policy_names() {
  static const std::vector<std::string> v{"shared-queue", "stealing"};
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

void validate(const scenario& s) {
  const auto& c = s.sched;
  if (!known(policy_names(), c.policy))
    throw config_error("unknown policy '" + c.policy + "' (known: " + joined(policy_names()) + ")");
  if (!known(idle_names(), c.idle.strategy))
    throw config_error("unknown idle strategy '" + c.idle.strategy + "' (known: " + joined(idle_names()) + ")");
  if (!known(trace_level_names(), s.trace_level))
    throw config_error("unknown trace level '" + s.trace_level + "' (known: " + joined(trace_level_names()) + ")");
  if (c.steal != "one" && c.steal != "half")
    throw config_error("steal must be \"one\" or \"half\", not '" + c.steal + "'");
  if (c.workers == 0 || c.workers > 1024) throw config_error("workers must be between 1 and 1024");
  if (c.burst == 0) throw config_error("burst must be at least 1");
  if (c.idle.min_park_ns == 0 || c.idle.max_park_ns < c.idle.min_park_ns)
    throw config_error("idle: need 0 < min_park_ns <= max_park_ns");
  if (c.idle.sleep_ns == 0) throw config_error("idle: sleep_ns must be positive");
  if (!find_workload(s.workload)) throw config_error("unknown workload '" + s.workload + "'");
}

}  // namespace twinsched
