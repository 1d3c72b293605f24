// The suite's folder and benchmarks, and its grid: one sweep per backend over the benchmarks, the policies and the worker or core counts.
#include "sweep/suite_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenarios/scenario_loader.hpp"
#include "scenarios/toml_reader.hpp"

namespace twinsched {
namespace {

using detail::joined;

bool is_path(const std::string& name) { return name.find('/') != std::string::npos || name == "." || name == ".."; }

/// A spec over the benchmarks: scenario x policy x `count_axis` ("workers" or "cores").
sweep_spec backend_spec(const suite_plan& p, const suite_request& r, const std::string& backend,
                        const std::map<std::string, std::vector<std::string>>& sizes) {
  sweep_spec spec;
  spec.name = "suite " + p.name;
  spec.source = p.folder;
  spec.backends = {backend};
  spec.skip_impossible = true;
  spec.sim.time_limit_s = r.time_limit_s;
  sweep_axis scenarios{"scenario", {}}, policies{"policy", p.policies}, counts{backend == "real" ? "workers" : "cores", {}};
  for (const auto& b : p.benchmarks) {
    scenarios.values.push_back(b.scenario);
    scenario& s = spec.axis_scenarios.emplace(b.scenario, load_axis_scenario(b.scenario, "")).first->second;
    if (auto it = sizes.find(b.scenario); it != sizes.end())
      for (const auto& kv : it->second) apply_param_override(s, kv);  // checked by read_sizes
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

std::map<std::string, std::vector<std::string>> read_sizes(const std::vector<std::string>& files,
                                                           const std::vector<suite_benchmark>& benchmarks) {
  std::map<std::string, std::vector<std::string>> sizes;
  for (const auto& file : files) {
    std::ifstream in(file);
    if (!in) throw scenario_error(file, 0, 0, "cannot read this file of test sizes");
    std::string line;
    for (std::uint32_t n = 1; std::getline(in, line); ++n) {
      const auto trim = [](std::string s) {
        s.erase(0, s.find_first_not_of(" \t"));
        s.erase(s.find_last_not_of(" \t") + 1);
        return s;
      };
      const std::string name = trim(line.substr(0, line.find('|')));
      if (name.empty() || name[0] == '#') continue;
      const auto bar = line.find('|'), second = bar == std::string::npos ? bar : line.find('|', bar + 1);
      if (second == std::string::npos)
        throw scenario_error(file, n, 1, "expected SCENARIO | POLICIES | --param KEY=VALUE ...");
      const auto b = std::find_if(benchmarks.begin(), benchmarks.end(), [&](const suite_benchmark& x) {
        return x.scenario == name || x.name == name.substr(name.rfind('/') + 1);
      });
      if (b == benchmarks.end()) continue;
      std::istringstream args(line.substr(second + 1));
      std::vector<std::string> params;
      for (std::string flag, kv; args >> flag;) {
        if (flag != "--param" || !(args >> kv))
          throw scenario_error(file, n, std::uint32_t(second + 2), "only --param KEY=VALUE is read here, not '" + flag + "'");
        scenario check = load_axis_scenario(b->scenario, "");
        try {
          apply_param_override(check, kv);
        } catch (const scenario_error& e) {
          throw scenario_error(file, n, std::uint32_t(second + 2), b->name + ": " + e.message());
        }
        params.push_back(kv);
      }
      sizes[b->scenario] = std::move(params);
    }
  }
  return sizes;
}

std::vector<std::string> quick_size_files(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path tests = fs::path(stock_scenario_folder()).parent_path() / "tests" / name;
  std::vector<std::string> files;
  std::error_code ec;
  if (!is_path(name))
    for (const auto& e : fs::directory_iterator(tests, ec))
      if (e.path().extension() == ".cases") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty())
    throw scenario_error("--quick", 0, 0, "no test sizes for suite " + name + ": no " + (tests / "*.cases").string() +
                                              " (the source tree has them, an installed twinsched not); --sizes FILE "
                                              "names a file of them");
  return files;
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
  std::vector<std::string> size_files = r.sizes;
  if (r.quick)
    for (auto& f : quick_size_files(r.suite)) size_files.push_back(f);
  p.sizes = read_sizes(size_files, p.benchmarks);
  for (const std::string backend : {"real", "sim"}) {
    if (r.backend != backend && r.backend != "both") continue;
    if (backend == "real") check_values("--workers", "workers", texts(r.workers));
    if (backend == "sim") check_values("--cores", "cores", texts(r.cores));
    p.specs.push_back(backend_spec(p, r, backend, p.sizes));
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
