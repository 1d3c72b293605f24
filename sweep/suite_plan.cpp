// The suite's folder and benchmarks, and its grid: one sweep per backend over the benchmarks, the policies and the worker or core counts.
#include "sweep/suite_plan.hpp"

#include <algorithm>
#include <filesystem>

#include "scenarios/scenario_loader.hpp"
#include "scenarios/toml_reader.hpp"

namespace twinsched {
namespace {

using detail::joined;

bool is_path(const std::string& name) { return name.find('/') != std::string::npos || name == "." || name == ".."; }

/// A spec over the benchmarks: scenario x policy x `count_axis` ("workers" or "cores").
sweep_spec backend_spec(const suite_plan& p, const suite_request& r, const std::string& backend) {
  sweep_spec spec;
  spec.name = "suite " + p.name;
  spec.source = p.folder;
  spec.backends = {backend};
  spec.skip_impossible = true;
  spec.sim.time_limit_s = r.time_limit_s;
  sweep_axis scenarios{"scenario", {}}, policies{"policy", p.policies}, counts{backend == "real" ? "workers" : "cores", {}};
  for (const auto& b : p.benchmarks) {
    scenarios.values.push_back(b.scenario);
    spec.axis_scenarios.emplace(b.scenario, load_axis_scenario(b.scenario, ""));
  }
  for (std::uint32_t n : backend == "real" ? r.workers : r.cores) counts.values.push_back(std::to_string(n));
  spec.axes = {scenarios, policies, counts};
  return spec;
}

/// Each value of a list flag checked as the sweep axis of that name checks it (exit 2 naming the flag).
void check_values(const std::string& flag, const std::string& axis, const std::vector<std::string>& values) {
  if (values.empty()) throw scenario_error(flag, 0, 0, "needs at least one value");
  for (const auto& v : values) {
    scenario s;
    sim_options o;
    try {
      apply_axis_value(s, o, axis, v);
    } catch (const std::invalid_argument& e) {
      throw scenario_error(flag, 0, 0, e.what());
    }
  }
}

std::vector<std::string> texts(const std::vector<std::uint32_t>& v) {
  std::vector<std::string> t;
  for (auto n : v) t.push_back(std::to_string(n));
  return t;
}

}  // namespace

std::vector<std::string> stock_suite_names() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(stock_scenario_folder(), ec))
    if (e.is_directory(ec) && e.path().filename() != "sweeps") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string suite_folder(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (is_path(name)) {
    if (!fs::is_directory(name, ec)) throw scenario_error(name, 0, 0, "not a folder of scenario files");
    return name;
  }
  const fs::path folder = fs::path(stock_scenario_folder()) / name;
  const auto known = stock_suite_names();
  if (name.empty() || name == "sweeps" || !fs::is_directory(folder, ec))
    throw scenario_error(name, 0, 0, "no such suite: no folder " + folder.string() + " (suites: " +
                                         (known.empty() ? "none" : joined(known)) +
                                         "; a folder of scenario files is a path: ./NAME)");
  return folder.string();
}

std::vector<suite_benchmark> suite_benchmarks(const std::string& name, const std::string& folder,
                                              const std::vector<std::string>& only) {
  namespace fs = std::filesystem;
  std::vector<suite_benchmark> all;
  for (const auto& f : list_scenario_files(folder)) {
    const std::string stem = fs::path(f).stem().string();
    all.push_back({stem, is_path(name) ? f : name + "/" + stem});
  }
  if (all.empty()) throw scenario_error(folder, 0, 0, "no scenario files (*.toml) in the suite's folder");
  if (only.empty()) return all;
  std::vector<std::string> known, unknown;
  for (const auto& b : all) known.push_back(b.name);
  for (const auto& o : only)
    if (std::find(known.begin(), known.end(), o) == known.end()) unknown.push_back(o);
  if (!unknown.empty())
    throw scenario_error("--only", 0, 0, "no benchmark " + joined(unknown) + " in suite " + name + "; known: " + joined(known));
  std::erase_if(all, [&](const suite_benchmark& b) { return std::find(only.begin(), only.end(), b.name) == only.end(); });
  return all;
}

suite_plan plan_suite(const suite_request& r) {
  suite_plan p;
  p.name = r.suite;
  p.folder = suite_folder(r.suite);
  p.benchmarks = suite_benchmarks(r.suite, p.folder, r.only);
  if (r.backend != "real" && r.backend != "sim" && r.backend != "both")
    throw scenario_error("--backend", 0, 0, "unknown backend '" + r.backend + "'; valid: real, sim, both");
  if (!r.policies.empty()) check_values("--policies", "policy", r.policies);  // none given: every policy
  for (const auto& name : policy_names())  // the registry's order, each once
    if (r.policies.empty() || std::find(r.policies.begin(), r.policies.end(), name) != r.policies.end())
      p.policies.push_back(name);
  for (const std::string backend : {"real", "sim"}) {
    if (r.backend != backend && r.backend != "both") continue;
    if (backend == "real") check_values("--workers", "workers", texts(r.workers));
    if (backend == "sim") check_values("--cores", "cores", texts(r.cores));
    p.specs.push_back(backend_spec(p, r, backend));
    for (auto& c : expand(p.specs.back(), &p.skipped)) {
      c.index = p.cells.size();
      p.cells.push_back(std::move(c));
    }
  }
  if (p.cells.empty())
    throw scenario_error("--policies", 0, 0, "no cell can run: " + (p.skipped.empty() ? "" : p.skipped.front().reason));
  return p;
}

std::string suite_config(const std::string& backend, const std::string& count) {
  return backend + " " + count + (backend == "real" ? "w" : "c");
}

}  // namespace twinsched
