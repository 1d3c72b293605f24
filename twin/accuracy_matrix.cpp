// The accuracy matrix's cases: scenarios x policies x worker counts, those the configuration allows.
#include "twin/accuracy_matrix.hpp"

#include "scenarios/scenario_loader.hpp"

namespace twinsched::twin {
namespace {

scenario_error command_line(const std::string& message) { return scenario_error("command line", 0, 0, message); }

std::string stem(const std::string& path) {
  std::string f = path.substr(path.find_last_of('/') + 1);
  return f.size() > 5 && f.ends_with(".toml") ? f.substr(0, f.size() - 5) : f;
}

/// A --scenario value: a stock scenario's name or a path to a file, as every command reads one.
scenario resolve_scenario(const std::string& arg) {
  try {
    return load_scenario(arg);
  } catch (const scenario_error& e) {
    if (e.line() != 0) throw;  // the file's own error, at its line
    throw command_line("--scenario " + std::string(e.what()));
  }
}

std::vector<std::uint32_t> worker_counts(const matrix_request& r, unsigned here, std::ostream& log) {
  for (auto w : r.workers)
    if (w > here)
      throw command_line("--workers " + std::to_string(w) + ": this machine has " + std::to_string(here) +
                         " cores, and real runs compare with one modeled core per worker (at most " +
                         std::to_string(here) + ")");
  if (!r.workers.empty()) return r.workers;
  std::vector<std::uint32_t> v;
  for (std::uint32_t w : {1u, 2u})
    if (w <= here) v.push_back(w);
    else log << "accuracy: " << w << " workers left out: this machine has " << here << " core\n";
  return v;
}

std::vector<scenario> base_scenarios(const matrix_request& r) {
  std::vector<scenario> bases;
  if (r.scenarios.empty()) {
    for (const auto& f : stock_accuracy_files(stock_scenario_folder())) bases.push_back(load_scenario_file(f));
    if (bases.empty()) bases.push_back(load_default_scenario());
  } else {
    for (const auto& a : r.scenarios) bases.push_back(resolve_scenario(a));
  }
  for (auto& s : bases) {
    if (r.seed) s.seed = *r.seed;
    for (const auto& p : r.params) apply_param_override(s, p);
    s.trace = trace_level::off;
  }
  return bases;
}

/// One skipped scenario x policy x reason, its worker counts joined.
struct skip {
  std::string what, why, workers;
  std::string text() const { return what + " (workers " + workers + "): " + why; }
};

}  // namespace

std::vector<std::string> stock_accuracy_files(const std::string& folder) {
  std::vector<std::string> v;
  for (const auto& f : list_scenario_files(folder))
    if (!stem(f).starts_with("sim_")) v.push_back(f);
  return v;
}

std::vector<accuracy_case> build_matrix(const matrix_request& r, unsigned host_cores, std::ostream& log) {
  const std::vector<std::uint32_t> workers = worker_counts(r, host_cores, log);
  const std::vector<scenario> bases = base_scenarios(r);
  const std::vector<std::string>& policies = r.policies.empty() ? policy_names() : r.policies;
  // no --idle: each scenario keeps its own strategy (an empty name stands for it)
  const std::vector<std::string> idles = r.idles.empty() ? std::vector<std::string>{""} : r.idles;
  std::vector<accuracy_case> cases;
  std::vector<skip> skipped;
  for (const auto& base : bases)
    for (const auto& idle : idles)
    for (const auto& pol : policies)
      for (auto w : workers) {
        accuracy_case c;
        c.s = base;
        if (!idle.empty()) {  // the idle strategy joins the name, which the tables show
          c.s.sched.idle.strategy = idle;
          c.s.name += "+" + idle;
        }
        c.s.sched.policy = pol;
        c.s.sched.workers = w;
        try {
          validate(c.s);
        } catch (const config_error& e) {
          if (skipped.empty() || skipped.back().what != base.name + " " + pol || skipped.back().why != e.what())
            skipped.push_back({base.name + " " + pol, e.what(), std::to_string(w)});
          else
            skipped.back().workers += ", " + std::to_string(w);
          continue;
        }
        cases.push_back(std::move(c));
      }
  if (cases.empty())
    throw command_line("no case to run: " + skipped.front().text() +
                       (skipped.size() > 1 ? " (and " + std::to_string(skipped.size() - 1) + " more)" : ""));
  for (const auto& s : skipped) log << "accuracy: skipped, does not apply: " << s.text() << '\n';
  return cases;
}

}  // namespace twinsched::twin
