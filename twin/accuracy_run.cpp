// Running the accuracy matrix: every real run (in rounds or case by case, the host probed around
// each, spoiled runs re-run), then every simulation; each case's real figure and failure.
#include "twin/accuracy_run.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <set>
#include <memory>
#include <stdexcept>
#include <optional>

#include "runtime/run_threads.hpp"
#include "twin/accuracy_host_check.hpp"

namespace twinsched::twin {
namespace {

/// A measured real run, and whether the host was in the model's state on both sides of it.
struct measured_run {
  run_result r;
  bool in_state;
};

/// One real run of a case. A failed run sets the case's failure and gives nothing; a failed
/// case runs no more.
std::optional<run_result> real_run(accuracy_case& c, const matrix_steps& steps, std::size_t step,
                                   const std::string& phase) {
  if (!c.failure.empty()) return std::nullopt;
  steps.started(step, case_name(c.s), phase);
  try {
    run_result r = steps.real_run(c.s);
    if (r.ok()) return r;
    c.failure = "real run: " + verdict_failure(r);
  } catch (const std::exception& e) {
    c.failure = std::string("real run: ") + e.what();
  }
  return std::nullopt;
}

/// The case's real figure from its measured runs (the median of those made in the model's
/// host state, or of all when none was: host_moved), then its one simulation.
/// With `all_off` (no run of the matrix found the host in the model's state: it models another
/// machine, or this one in another state) every run counts, as the host check then says.
void finish_case(accuracy_case& c, const std::vector<measured_run>& runs, bool all_off, const accuracy_setup& setup,
                 const matrix_steps& steps, std::size_t step) {
  if (!c.failure.empty()) return;
  c.host_moved = !all_off && std::none_of(runs.begin(), runs.end(), [](const measured_run& m) { return m.in_state; });
  std::vector<const run_result*> kept;
  for (const auto& m : runs) {
    const bool counts = m.in_state || all_off || c.host_moved;
    (counts ? c.real_runs_s : c.off_state_runs_s).push_back(m.r.wall_s);
    if (counts) kept.push_back(&m.r);
  }
  std::sort(kept.begin(), kept.end(), [](const run_result* a, const run_result* b) { return a->wall_s < b->wall_s; });
  c.real = *kept[(kept.size() - 1) / 2];
  steps.started(step, case_name(c.s), "simulating on " + setup.machine);
  try {
    sim_options so;
    // The cores the real run could use: its workers', or more where adaptive may start more
    // threads than it begins with (up to this machine's cores, which the real run shares).
    so.cores = std::max(c.s.sched.workers, std::min(c.s.sched.max_workers, std::max(1u, setup.host_cores)));
    so.machine = setup.machine;
    so.costs = c.costs;
    if (c.costs) so.costs_source = c.s.name + " (profiled on 1 worker)";
    c.sim = steps.simulate(c.s, so);
    if (!c.sim.ok()) c.failure = "simulation: " + verdict_failure(c.sim.run);
  } catch (const std::exception& e) {
    c.failure = std::string("simulation: ") + e.what();
  }
}

/// One profile per scenario (by name), taken before any measured run, shared by its cases.
void profile_scenarios(std::vector<accuracy_case>& cases, const matrix_steps& steps, std::size_t& step) {
  std::map<std::string, std::shared_ptr<const cost_profile>> taken;
  for (accuracy_case& c : cases) {
    auto& p = taken[c.s.name];
    if (!p) {
      steps.started(step++, c.s.name, "profiling its behaviors on 1 worker");
      try {
        p = std::make_shared<const cost_profile>(steps.profile(c.s));
      } catch (const std::exception& e) {
        c.failure = std::string("profile: ") + e.what();
        continue;
      }
    }
    c.costs = p;
  }
}

}  // namespace

std::string verdict_failure(const run_result& r) {
  if (!r.errors.empty()) return r.errors.front();
  if (r.messages != r.expected_messages)
    return std::to_string(r.messages) + " messages processed, " + std::to_string(r.expected_messages) + " expected";
  if (r.checksum != r.reference) return "checksum differs from the sequential reference";
  if (r.leftover) return std::to_string(r.leftover) + " mailboxes or queued actors left over";
  return "the workload's own check failed";
}

void run_matrix(std::vector<accuracy_case>& cases, accuracy_setup& setup, matrix_steps steps) {
  if (!steps.real_run) steps.real_run = [](const scenario& s) { return run_on_threads(s); };
  if (!steps.simulate) steps.simulate = [](const scenario& s, const sim_options& o) { return simulate(s, o); };
  if (!steps.probe) steps.probe = host_probe();
  if (!steps.profile)
    steps.profile = [](const scenario& s) {
      cost_profile p;
      scenario one = s;
      one.sched.workers = 1;
      const run_result r = run_on_threads(one, trace_request{}, nullptr, &p);
      if (!r.ok()) throw std::runtime_error("the 1-worker profile run failed: " + verdict_failure(r));
      return p;
    };
  const std::size_t n = cases.size(), per_case = setup.warmup + setup.runs;
  std::set<std::string> scenarios;  // one profile each
  if (setup.profile_costs)
    for (const accuracy_case& c : cases) scenarios.insert(c.s.name);
  steps.planned(scenarios.size() + n * (per_case + 1));
  std::size_t step = 0;
  if (setup.profile_costs) profile_scenarios(cases, steps, step);
  std::vector<std::vector<measured_run>> measured(n);
  auto phase = [&](unsigned i) {
    return i < setup.warmup ? std::string("real warm-up")
                            : "real run " + std::to_string(i - setup.warmup + 1) + "/" + std::to_string(setup.runs);
  };
  bool in_state = true;  // the last probe's verdict
  auto probe = [&] {
    if (const double ns = steps.probe(); ns > 0) {
      setup.host_line_ns.push_back(ns);
      in_state = probe_matches(setup, ns);
    }
  };
  // case k's run, a measured one unless `warm`, with the probe after it
  auto one = [&](std::size_t k, bool warm, const std::string& what) {
    const bool before = in_state;
    auto r = real_run(cases[k], steps, step++, what);
    probe();
    if (!r || warm) return;
    measured[k].push_back({std::move(*r), before && in_state});
    ++(measured[k].back().in_state ? setup.runs_in_state : setup.runs_off_state);
  };
  probe();
  if (!in_state) steps.warn(host_warning(setup));
  if (setup.order == "cases") {
    for (std::size_t k = 0; k < n; ++k)
      for (unsigned i = 0; i < per_case; ++i) one(k, i < setup.warmup, phase(i));
  } else {
    for (unsigned i = 0; i < per_case; ++i)
      for (std::size_t k = 0; k < n; ++k) one(k, i < setup.warmup, phase(i));
  }
  auto short_of_runs = [&](std::size_t k) {
    return cases[k].ok() && std::size_t(std::count_if(measured[k].begin(), measured[k].end(),
                                                      [](const measured_run& m) { return m.in_state; })) < setup.runs;
  };
  for (unsigned round = 1; round <= setup.reruns && setup.runs_in_state > 0; ++round) {
    std::vector<std::size_t> todo;
    for (std::size_t k = 0; k < n; ++k)
      if (short_of_runs(k)) todo.push_back(k);
    if (todo.empty()) break;
    steps.planned(todo.size());
    const std::size_t before = setup.runs_in_state;
    for (std::size_t k : todo) one(k, false, "real re-run " + std::to_string(round) + " (the host was elsewhere)");
    setup.reran += todo.size();
    if (setup.runs_in_state == before) break;
  }
  for (std::size_t k = 0; k < n; ++k) finish_case(cases[k], measured[k], setup.runs_in_state == 0, setup, steps, step++);
}

}  // namespace twinsched::twin
