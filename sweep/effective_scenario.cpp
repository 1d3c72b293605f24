// A cell's effective scenario: the canonical scenario text read back as JSON, plus the simulation's settings.
#include "sweep/effective_scenario.hpp"

#include <map>

#include "scenarios/toml_reader.hpp"
#include "sim/machine_model.hpp"
#include "traces/scenario_text.hpp"

namespace twinsched {
namespace {

nlohmann::ordered_json to_json(const toml::node& n) {
  if (const toml::table* t = n.as_table()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (auto&& [k, v] : *t) j[std::string(k.str())] = to_json(v);
    return j;
  }
  if (const toml::array* a = n.as_array()) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const toml::node& v : *a) j.push_back(to_json(v));
    return j;
  }
  if (n.is_string()) return n.as_string()->get();
  if (n.is_integer()) return n.as_integer()->get();
  if (n.is_floating_point()) return n.as_floating_point()->get();
  if (n.is_boolean()) return n.as_boolean()->get();
  return nullptr;  // dates and times: the canonical form writes none
}

void add_leaves(const nlohmann::ordered_json& j, const std::string& prefix,
                std::vector<std::pair<std::string, nlohmann::ordered_json>>& out) {
  if (j.is_object() && !j.empty()) {
    for (auto it = j.begin(); it != j.end(); ++it) add_leaves(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out.emplace_back(prefix, j);
}

}  // namespace

nlohmann::ordered_json effective_scenario(scenario s, const sim_options* sim) {
  machine_model m;
  if (sim) {
    if (!sim->machine.empty()) s.machine = sim->machine;
    m = load_machine(s.machine);
    if (const workload_info* w = find_workload(s.workload))
      s.workload_params = with_machine_kernels(*w, s.workload_params, m).values;
  }
  nlohmann::ordered_json j = to_json(toml::parse(traces::canonical_scenario_text(s)));
  if (sim) {
    nlohmann::ordered_json o;
    o["cores"] = sim->cores ? sim->cores : m.cores();
    o["interleave"] = sim->interleave;
    o["quantum_ns"] = sim->quantum_ns > 0 ? sim->quantum_ns : m.quantum_ns;
    o["time_limit_s"] = sim->time_limit_s;
    j["sim"] = std::move(o);
  }
  return j;
}

std::vector<std::pair<std::string, nlohmann::ordered_json>> leaves(const nlohmann::ordered_json& j) {
  std::vector<std::pair<std::string, nlohmann::ordered_json>> out;
  if (j.is_object()) add_leaves(j, "", out);
  return out;
}

std::string leaf_text(const nlohmann::ordered_json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<std::string> differences(const nlohmann::ordered_json& before, const nlohmann::ordered_json& now) {
  std::map<std::string, nlohmann::ordered_json> old;
  for (auto& [k, v] : leaves(before)) old.emplace(k, v);
  std::vector<std::string> d;
  for (auto& [k, v] : leaves(now)) {
    auto it = old.find(k);
    if (it == old.end())
      d.push_back(k + " was absent, is " + leaf_text(v));
    else if (it->second != v)
      d.push_back(k + " was " + leaf_text(it->second) + ", is " + leaf_text(v));
    if (it != old.end()) old.erase(it);
  }
  for (auto& [k, v] : old) d.push_back(k + " was " + leaf_text(v) + ", is absent");
  return d;
}

}  // namespace twinsched
