// What-if: a recorded run's scenario simulated again under other policies and core counts, with an error bar from how far the same model lands from the recording itself.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::twin {

/// The least half-width of a prediction's error bar, relative: a single recorded run's own
/// spread from launch to launch on a shared machine (docs/WHATIF.md measures it).
inline constexpr double whatif_min_bar = 0.05;

/// One predicted configuration: a policy on `cores` modeled cores, one worker each.
struct whatif_case {
  std::string policy;
  std::uint32_t cores = 0;
  sim_result r;
  std::string error;  ///< not simulated: why (a policy the workload cannot use)
  double low_s = 0, high_s = 0;  ///< the error bar around r.sim_s
};

struct whatif_run {
  scenario s;  ///< the recorded scenario
  std::string trace, backend;
  std::uint32_t recorded_workers = 0;
  double recorded_s = 0;  ///< the recording's makespan
  sim_result self;        ///< the recorded configuration, simulated with the same costs
  double error = 0;       ///< (self - recorded) / recorded
  double bar = 0;         ///< the relative half-width of every prediction's bar: max(|error|, whatif_min_bar)
  std::vector<whatif_case> cases;
};

/// The recording's scenario and makespan, and the recorded configuration simulated with
/// `base`'s machine and costs (throws trace_error for a trace without a scenario, config_error
/// for a bad one). Then each policy x cores, reported to `each` as it ends.
whatif_run what_if(const std::string& trace, const std::vector<std::string>& policies,
                   const std::vector<std::uint32_t>& cores, const sim_options& base,
                   const std::function<void(const whatif_run&, const whatif_case&)>& each);

}  // namespace twinsched::twin
