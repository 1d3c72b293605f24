// Simulating a recorded run again, as recorded and as it might have been.
#include "whatif.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "scenarios/scenario_loader.hpp"
#include "sim/replay_outcome.hpp"
#include "traces/trace_error.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::twin {

model_errors read_model_errors(const std::vector<std::string>& files) {
  model_errors m;
  for (const std::string& f : files) {
    m.source += (m.source.empty() ? "" : ", ") + f;
    std::ifstream in(f);
    if (!in) throw config_error(f + ": cannot be read");
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
      throw config_error(f + ": not JSON (" + e.what() + ")");
    }
    if (!j.is_object() || !j.contains("cases") || !j["cases"].is_array())
      throw config_error(f + ": not the JSON of `twinsched accuracy --json` (no \"cases\")");
    for (const auto& c : j["cases"]) {
      const auto* e = c.contains("error") && c["error"].is_object() && c["error"].contains("makespan_ms")
                          ? &c["error"]["makespan_ms"]
                          : nullptr;
      if (!c.value("ok", false) || c.value("host_moved", false) || !e || !e->is_number() || !c.contains("workers"))
        continue;
      m.by_workers[c["workers"].get<std::uint32_t>()].push_back(e->get<double>() / 100);
    }
  }
  return m;
}

std::optional<error_band> conformal_band(std::vector<double> errors, double coverage) {
  const std::size_t n = errors.size();
  constexpr double slack = 1e-9;  // 1 - 0.8 is 0.19999...: 10 x that / 2 must still rank 1
  const auto low_rank = std::size_t(std::floor(double(n + 1) * (1 - coverage) / 2 + slack));
  const auto high_rank = std::size_t(std::ceil(double(n + 1) * (1 + coverage) / 2 - slack));
  if (low_rank < 1 || high_rank > n) return std::nullopt;
  std::sort(errors.begin(), errors.end());
  return error_band{errors[low_rank - 1], errors[high_rank - 1], n};
}

whatif_run what_if(const std::string& trace, const std::vector<std::string>& policies,
                   const std::vector<std::uint32_t>& cores, const sim_options& base,
                   const std::function<void(const whatif_run&, const whatif_case&)>& each, const model_errors& errors) {
  whatif_run w;
  w.trace = trace;
  {
    traces::trace_reader rec(trace);
    const traces::trace_header& h = rec.header();
    if (h.scenario_text.empty()) throw traces::trace_error(trace, 0, "the header holds no scenario to simulate");
    w.s = load_scenario_text(h.scenario_text, trace + " (recorded scenario)");
    w.backend = h.backend;
    w.recorded_workers = h.workers;
    w.recorded_s = double(rec.footer().wall_ns) * 1e-9;
    if (!(w.recorded_s > 0)) throw traces::trace_error(trace, 0, "the footer holds no makespan (a run that never ended?)");
    // as `replay` simulates a recording: its cores (a real run's host), the machine asked for
    sim_options self = replay_options(h, w.s, base.machine, 0);
    self.costs = base.costs;
    self.costs_source = base.costs_source;
    self.time_limit_s = base.time_limit_s;
    w.s.trace = trace_level::off;
    w.self = simulate(w.s, self);
  }
  w.error = (w.self.sim_s - w.recorded_s) / w.recorded_s;
  w.bar = std::max(std::abs(w.error), whatif_min_bar);
  for (const std::string& policy : policies)
    for (const std::uint32_t n : cores) {
      whatif_case c;
      c.policy = policy;
      c.cores = n;
      scenario s = w.s;
      s.sched.policy = policy;
      s.sched.workers = n;
      sim_options o = base;
      o.cores = n;
      try {
        c.r = simulate(s, o);
        c.low_s = c.r.sim_s * (1 - w.bar);
        c.high_s = c.r.sim_s * (1 + w.bar);
        if (const auto e = errors.by_workers.find(n); e != errors.by_workers.end())
          c.band = conformal_band(e->second, whatif_coverage);
        if (c.band && c.band->low > -1) {  // an error of -100% would say the real run never ended
          c.low_s = std::min(c.low_s, c.r.sim_s / (1 + c.band->high));
          c.high_s = std::max(c.high_s, c.r.sim_s / (1 + c.band->low));
        }
      } catch (const config_error& e) {
        c.error = e.what();
      }
      w.cases.push_back(c);
      if (each) each(w, w.cases.back());
    }
  return w;
}

}  // namespace twinsched::twin
