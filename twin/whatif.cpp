// Simulating a recorded run again, as recorded and as it might have been.
#include "whatif.hpp"

#include <algorithm>
#include <cmath>

#include "scenarios/scenario_loader.hpp"
#include "sim/replay_outcome.hpp"
#include "traces/trace_error.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched::twin {

whatif_run what_if(const std::string& trace, const std::vector<std::string>& policies,
                   const std::vector<std::uint32_t>& cores, const sim_options& base,
                   const std::function<void(const whatif_run&, const whatif_case&)>& each) {
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
      } catch (const config_error& e) {
        c.error = e.what();
      }
      w.cases.push_back(c);
      if (each) each(w, w.cases.back());
    }
  return w;
}

}  // namespace twinsched::twin
