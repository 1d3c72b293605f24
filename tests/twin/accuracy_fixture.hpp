// Accuracy cases made by hand for the twin/ tests: no run behind them.
#pragma once
#include <string>

#include "twin/accuracy_case.hpp"

namespace twinsched::twin::test {

/// A case of scenario `name`, policy stealing, one worker, whose one real run took real_ms
/// and whose simulation sim_ms.
inline accuracy_case made(const std::string& name, double real_ms, double sim_ms) {
  accuracy_case c;
  c.s.name = name;
  c.s.sched.policy = "stealing";
  c.s.sched.workers = 1;
  c.real.wall_s = real_ms / 1e3;
  c.sim.run.wall_s = sim_ms / 1e3;
  c.real.per_worker.resize(1);
  c.sim.run.per_worker.resize(1);
  c.real_runs_s = {c.real.wall_s};
  return c;
}

}  // namespace twinsched::twin::test
