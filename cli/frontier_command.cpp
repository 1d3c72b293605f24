// `twinsched frontier SCENARIO`: one load level under every idle strategy x policy, p99 latency against CPU per request, the Pareto front marked and drawn.
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/sim_flags.hpp"
#include "cli/subcommand.hpp"
#include "models/registry.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/run_summary.hpp"
#include "twin/frontier.hpp"
#include "twin/text_table.hpp"
#include "viz/frontier_chart.hpp"
#include "viz/svg_chart.hpp"

namespace twinsched::cli {
namespace {

struct frontier_cli {
  std::string file, svg;
  std::vector<std::string> policies, idles, params;
  std::uint32_t workers = 0;  ///< 0: the scenario's
  unsigned runs = 3;
  bool simulate = false, json = false;
  sim_options opt;
};

std::string us(double ns) { return traces::fixed(ns / 1e3, 1); }

void print_table(const std::vector<twin::frontier_cell>& cells) {
  std::vector<const twin::frontier_cell*> order;
  for (const auto& c : cells) order.push_back(&c);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
    if (a->error.empty() != b->error.empty()) return a->error.empty();
    return a->cpu_per_request_ns < b->cpu_per_request_ns;
  });
  twin::text_table t{{"idle", "policy", "p50 us", "p99 us", "(runs' range)", "p99.9 us", "CPU/request us", "(range)",
                      "CPU", "front", ""},
                     {false, false, true, true, false, true, true, false, true, true, false},
                     {}};
  for (const auto* c : order) {
    if (!c->error.empty()) {
      t.rows.push_back({c->idle, c->policy, "n/a", "", "", "", "", "", "", "", c->error});
      continue;
    }
    t.rows.push_back({c->idle, c->policy, us(c->p50_ns), us(c->p99_ns), "(" + us(c->p99_low_ns) + "-" + us(c->p99_high_ns) + ")",
                      us(c->p999_ns), us(c->cpu_per_request_ns), "(" + us(c->cpu_low_ns) + "-" + us(c->cpu_high_ns) + ")",
                      traces::fixed(c->cpu_share * 100, 0) + "%", c->on_front ? "*" : "", c->ok ? "" : "verdict FAIL"});
  }
  std::ostringstream text;
  t.print(text, false);
  std::istringstream lines(text.str());
  for (std::string line; std::getline(lines, line);) std::cout << "  " << line << '\n';
}

nlohmann::json json_of(const scenario& s, const frontier_cli& c, const std::vector<twin::frontier_cell>& cells) {
  nlohmann::json j = {{"scenario", s.name}, {"workers", s.sched.workers}, {"backend", c.simulate ? "sim" : "threads"},
                      {"runs", c.simulate ? 1u : c.runs}};
  j["cells"] = nlohmann::json::array();
  for (const auto& x : cells) {
    if (!x.error.empty()) {
      j["cells"].push_back({{"policy", x.policy}, {"idle", x.idle}, {"error", x.error}});
      continue;
    }
    j["cells"].push_back({{"policy", x.policy}, {"idle", x.idle}, {"p50_ns", x.p50_ns}, {"p99_ns", x.p99_ns},
                          {"p999_ns", x.p999_ns}, {"p99_low_ns", x.p99_low_ns}, {"p99_high_ns", x.p99_high_ns},
                          {"cpu_per_request_ns", x.cpu_per_request_ns}, {"cpu_low_ns", x.cpu_low_ns},
                          {"cpu_high_ns", x.cpu_high_ns}, {"cpu_share", x.cpu_share}, {"on_front", x.on_front},
                          {"ok", x.ok}});
  }
  return j;
}

int frontier(const frontier_cli& c) {
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  for (const auto& p : c.params) apply_param_override(s, p);
  if (c.workers) s.sched.workers = c.workers;
  try {
    validate(s);
  } catch (const config_error& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  if (!c.svg.empty()) files::check_output(c.svg, "--svg", {c.file});
  twin::frontier_options o;
  for (const auto& p : policy_catalog())
    if (c.policies.empty() || std::find(c.policies.begin(), c.policies.end(), p.name) != c.policies.end())
      o.policies.push_back(p.name);
  for (const auto& i : idle_catalog())
    if (c.idles.empty() || std::find(c.idles.begin(), c.idles.end(), i.name) != c.idles.end()) o.idles.push_back(i.name);
  o.runs = c.runs;
  o.simulate = c.simulate;
  o.sim = c.opt;
  const std::size_t total = o.policies.size() * o.idles.size() * (c.simulate ? 1 : c.runs);
  std::size_t done = 0;
  const auto cells = twin::run_frontier(s, o, [&](const twin::frontier_cell& cell, unsigned round) {
    ++done;
    std::cerr << "twinsched: frontier " << done << "/" << total << ": round " << round + 1 << ", " << cell.idle << ", "
              << cell.policy << ": "
              << (cell.error.empty() && !cell.runs.empty()
                      ? "p99 " + viz::fmt_ns(double(cell.runs.back().request_latency.p99_ns)) + ", CPU " +
                            viz::fmt_ns(cell.runs.back().messages ? double(cell.runs.back().cpu_ns()) /
                                                                        double(cell.runs.back().messages)
                                                                  : 0.0) +
                            " a request"
                      : "n/a")
              << '\n';
  });
  bool latency = false, all_ok = true;
  for (const auto& x : cells) {
    for (const auto& r : x.runs) latency = latency || r.request_latency.count != 0;
    all_ok = all_ok && x.ok;
  }
  if (!latency)
    throw scenario_error(s.source, 0, 0,
                         "the workload records no request latency (context::record_latency): the frontier needs an "
                         "open-loop workload, e.g. open-light");
  const std::string where = std::string(c.simulate ? "simulated" : "real cores") + ", " +
                            std::to_string(s.sched.workers) + (s.sched.workers == 1 ? " worker" : " workers");
  if (c.json) {
    std::cout << json_of(s, c, cells).dump(2) << '\n';
  } else {
    std::cout << "frontier   " << s.name << " (" << where << "), median of " << (c.simulate ? 1 : c.runs)
              << (c.simulate || c.runs == 1 ? " run" : " runs") << " a cell; * on the Pareto front (no other cell "
              << "has both a lower p99 and less CPU per request)\n";
    print_table(cells);
  }
  if (!c.svg.empty()) {
    std::vector<viz::frontier_dot> dots;
    for (const auto& x : cells)
      if (x.error.empty() && !x.runs.empty() && x.ok)
        dots.push_back({x.policy, x.idle, x.cpu_per_request_ns, x.p99_ns, x.on_front});
    files::output_file out(c.svg);
    out.stream() << viz::frontier_svg(dots, "twinsched frontier: " + s.name + " (" + where + ")",
                                      "p99 latency against the CPU each request cost, median of " +
                                          std::to_string(c.simulate ? 1 : c.runs) + " runs per dot");
    out.commit();
  }
  return all_ok ? 0 : 1;
}

void check(frontier_cli& c) {
  for (const std::string& name : c.policies)
    if (!find_policy(name)) throw usage_error("--policy: unknown policy '" + name + "' (see `twinsched list policies`)");
  for (const std::string& name : c.idles) {
    bool known = false;
    for (const auto& i : idle_catalog()) known = known || i.name == name;
    if (!known) throw usage_error("--idle: unknown idle strategy '" + name + "' (see `twinsched list idle`)");
  }
}

constexpr const char* frontier_footer = R"(What it shows: an idle strategy trades latency for CPU. Each cell (idle strategy x policy) runs
the scenario --runs times, in rounds that visit every cell before the next (a noisy minute of a
shared host touches every cell alike); its dot is the median p99 latency of the requests (arrival
to completion, as the workload records it) against the median CPU the workers burned per
request (their thread CPU clocks over the requests handled). A dot is on the Pareto front when
no other has both a lower p99 and less CPU: the choices worth making; the rest are dominated.
With --sim, the same on the simulated machine (one run a cell: simulation is deterministic).
The scenario must record latency: the open-loop workload does (open-light, open-medium,
open-heavy: 10%, 50%, 90% of two workers' capacity).
Examples:
  twinsched frontier open-light --svg light.svg
  twinsched frontier open-heavy --policy stealing,sharing --idle busy-spin,backoff,park --runs 5
  twinsched frontier open-medium --sim --machine this-machine --svg sim.svg
  twinsched frontier open-light --workers 1 --param capacity_workers=1 --json
Exit codes: 0 every run's verdict is OK, 1 one failed, 2 a bad flag, scenario or path.)";

}  // namespace

void add_frontier_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<frontier_cli>(
      app, chosen, "frontier",
      "Run one load level under every idle strategy x policy and show p99 latency against CPU per request, "
      "the Pareto front marked (a table, --json, or an SVG picture).",
      frontier_footer, frontier, check);
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  cmd->add_option("--policy", c->policies, "Policies, comma-separated. Default: every policy.")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--idle", c->idles, "Idle strategies, comma-separated. Default: all six.")
      ->type_name("LIST")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--workers", c->workers, "Workers ([scheduler] workers). Default: the scenario's.")
      ->type_name("N")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--param", c->params, "Set a workload parameter (`twinsched list workloads`); repeatable.")
      ->type_name("K=V");
  cmd->add_option("--runs", c->runs, "Launches per cell on real cores; the dot is their median. Default: 3.")
      ->type_name("N")
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--sim", c->simulate, "Simulate instead of running on real cores (one run a cell).");
  add_sim_flags(*cmd, c->opt);
  cmd->add_flag("--json", c->json, "Print one JSON object instead of the table.");
  cmd->add_option("--svg", c->svg, "Also draw the frontier as an SVG picture.")->type_name("FILE");
}

}  // namespace twinsched::cli
