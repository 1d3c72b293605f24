// What-if: a recorded run's scenario simulated again under other policies and core counts, with an error bar from how far the same model lands from the recording itself.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::twin {

/// The least half-width of a prediction's error bar, relative: a single recorded run's own
/// spread from launch to launch on a shared machine (docs/WHATIF.md measures it).
inline constexpr double whatif_min_bar = 0.05;

/// The model's measured makespan errors, (sim - real) / real, by worker count: the cases of
/// `twinsched accuracy --json` files that passed their verdict with the host in the model's
/// state (each case's error relative, not in percent).
struct model_errors {
  std::map<std::uint32_t, std::vector<double>> by_workers;
  std::string source;  ///< the files, for the report
};
/// Reads accuracy JSON files; a file that is not one throws config_error naming it.
model_errors read_model_errors(const std::vector<std::string>& files);

/// Where the real makespan lies around a prediction, from errors the model made on cases like
/// it: real = sim / (1 + e), so the band of errors [low, high] gives [sim / (1 + high), sim /
/// (1 + low)]. Split conformal: with n errors sorted, low is the floor((n + 1) (1 - c) / 2)-th
/// and high the ceil((n + 1) (1 + c) / 2)-th, so a new case exchangeable with them falls inside
/// with probability at least c. None below the n that needs (n + 1) (1 - c) / 2 >= 1.
struct error_band {
  double low = 0, high = 0;
  std::size_t cases = 0;
};
std::optional<error_band> conformal_band(std::vector<double> errors, double coverage);

/// The coverage a band from model_errors aims at.
inline constexpr double whatif_coverage = 0.8;

/// One predicted configuration: a policy on `cores` modeled cores, one worker each.
struct whatif_case {
  std::string policy;
  std::uint32_t cores = 0;
  sim_result r;
  std::string error;  ///< not simulated: why (a policy the workload cannot use)
  double low_s = 0, high_s = 0;  ///< the error bar around r.sim_s
  std::optional<error_band> band;  ///< from the model's errors at `cores`, where given and enough
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
/// for a bad one). Then each policy x cores, reported to `each` as it ends. A prediction's bar
/// is +-bar around it, widened to the conformal band of `errors` at its core count where that
/// has one (whatif_coverage).
whatif_run what_if(const std::string& trace, const std::vector<std::string>& policies,
                   const std::vector<std::uint32_t>& cores, const sim_options& base,
                   const std::function<void(const whatif_run&, const whatif_case&)>& each,
                   const model_errors& errors = {});

}  // namespace twinsched::twin
