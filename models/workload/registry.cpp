// The registry of workload types, by name.
#include <algorithm>
#include <stdexcept>

#include "workload.hpp"

namespace twinsched {
namespace {
std::map<std::string, workload_info>& table() {
  static std::map<std::string, workload_info> t = [] {
    std::map<std::string, workload_info> m;
    for (auto& w : builtin_workloads()) m.emplace(w.name, std::move(w));
    return m;
  }();
  return t;
}
}  // namespace

bool register_workload(workload_info info) {
  auto name = info.name;
  if (!table().emplace(name, std::move(info)).second)
    throw std::logic_error("workload registered twice: " + name);
  return true;
}

const workload_info* find_workload(const std::string& name) {
  auto it = table().find(name);
  return it == table().end() ? nullptr : &it->second;
}

std::vector<const workload_info*> all_workloads() {
  std::vector<const workload_info*> v;
  for (auto& [_, w] : table()) v.push_back(&w);
  return v;
}

workload_params with_defaults(const workload_info& w, const std::map<std::string, param_value>& given) {
  workload_params p;
  for (auto& s : w.params) p.values[s.name] = s.default_value;
  for (auto& [k, v] : given) p.values[k] = v;
  return p;
}

}  // namespace twinsched
