// Writing a scenario back out as TOML in one canonical form, and the header fields derived from it.
#include "scenario_text.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>
#include <variant>

#include "checksum.hpp"
#include "models/registry.hpp"

namespace twinsched::traces {
namespace {

std::string quoted(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    switch (c) {
      case '"':
        r += "\\\"";
        break;
      case '\\':
        r += "\\\\";
        break;
      case '\n':
        r += "\\n";
        break;
      case '\t':
        r += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {  // TOML wants DEL escaped too
          char b[8];
          std::snprintf(b, sizeof b, "\\u%04x", unsigned(c));
          r += b;
        } else {
          r += c;
        }
    }
  }
  return r + "\"";
}

std::string value_text(const param_value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>)
          return quoted(x);
        else if constexpr (std::is_same_v<T, bool>)
          return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) {
          char b[40];
          std::snprintf(b, sizeof b, "%.17g", x);
          std::string s = b;
          if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // stays a TOML float
          return s;
        } else
          return std::to_string(x);
      },
      v);
}

/// "key = value\n" as a scenario file writes a registered knob.
template <class C>
std::string knob_line(const knob<C>& k, const C& c) {
  return std::string(k.key) + " = " + (k.text ? quoted(c.*k.text) : k.value_text(c)) + "\n";
}

std::string workload_part(const scenario& s) {
  std::string t = "seed = " + std::to_string(s.seed) + "\n\n[workload]\nkind = " + quoted(s.workload) + "\n";
  std::map<std::string, param_value> params = s.workload_params;
  if (const workload_info* w = find_workload(s.workload)) params = with_defaults(*w, s.workload_params).values;
  for (const auto& [k, v] : params) t += k + " = " + value_text(v) + "\n";
  return t;
}

}  // namespace

std::string canonical_workload_text(const scenario& s) { return workload_part(s); }

std::string canonical_scenario_text(const scenario& s) {
  const scheduler_config& c = s.sched;
  std::string t = "# canonical form of scenario " + quoted(s.name) + " as run (written by twinsched)\n";
  t += "name = " + quoted(s.name) + "\n";
  t += "machine = " + quoted(s.machine) + "\n";
  t += workload_part(s);
  t += "\n[scheduler]\n";
  t += "policy = " + quoted(c.policy) + "\n";
  t += "workers = " + std::to_string(c.workers) + "\n";
  t += "burst = " + std::to_string(c.burst) + "\n";
  for (const policy_entry& e : policy_catalog())
    for (const auto& k : e.knobs) t += knob_line(k, c);
  if (c.checks) t += "checks = true\n";  // only when on: older traces' text stays as it was
  t += "\n[scheduler.idle]\n";
  t += "strategy = " + quoted(c.idle.strategy) + "\n";
  for (const idle_entry& e : idle_catalog())
    for (const auto& k : e.knobs) t += knob_line(k, c.idle);
  return t;
}

trace_header header_for(const scenario& s, const std::string& backend, const std::string& machine, std::uint32_t lanes,
                        trace_level level) {
  trace_header h;
  h.scenario = s.name;
  h.scenario_text = canonical_scenario_text(s);
  h.scenario_hash = hash64(h.scenario_text);
  h.workload_hash = hash64(canonical_workload_text(s));
  h.seed = s.seed;
  h.backend = backend;
  h.machine = machine;
  h.workers = s.sched.workers;
  h.lanes = std::max(lanes, s.sched.workers);
  h.policy = s.sched.policy;
  h.idle = s.sched.idle.strategy;
  h.level = level;
  h.created_unix_s = std::uint64_t(std::time(nullptr));
#ifdef TWINSCHED_VERSION
  h.producer = std::string("twinsched ") + TWINSCHED_VERSION;
#else
  h.producer = "twinsched";
#endif
  return h;
}

std::string host_description() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(colon + 2);
      break;
    }
  }
  std::string d = "real: " + std::to_string(std::thread::hardware_concurrency()) + " hardware threads";
  if (!model.empty()) d += ", " + model;
  return d;
}

}  // namespace twinsched::traces
