// One case of the accuracy matrix (a scenario on real threads and in simulation) and the setup the matrix ran with.
#pragma once
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::twin {

/// One cell of the matrix: a scenario with its policy and worker count set, what the real
/// runs measured, what the simulation predicted.
struct accuracy_case {
  scenario s;                        ///< policy and workers already applied
  /// The measured (not warm-up) real makespans the case is judged on, in run order: those made
  /// while the host was in the model's state (the probes on both sides of the run agreed with
  /// the model), or every measured run if none was (then host_moved).
  std::vector<double> real_runs_s;
  std::vector<double> off_state_runs_s;  ///< measured runs made with the host in another state, left out of real_runs_s
  bool host_moved = false;           ///< no measured run found the host in the model's state: shown, left out of the summary
  run_result real;                   ///< the median run (for an even count, the faster of the two middle ones)
  sim_result sim;                    ///< one simulation on s.sched.workers modeled cores
  std::shared_ptr<const cost_profile> costs;  ///< with accuracy_setup::profile_costs: the scenario's profile
  std::string failure;               ///< why the case has no comparison (a run threw or failed its verdict); empty if ok
  bool ok() const { return failure.empty(); }
};

/// "forward stealing 2w": how progress lines and the summary name a case.
std::string case_name(const scenario& s);

/// What the run was asked to do: how the matrix runs, printed above the tables and stored in the JSON.
struct accuracy_setup {
  std::string machine;
  unsigned host_cores = 0;
  unsigned runs = 3, warmup = 1;
  std::string order = "rounds";  ///< how the real runs are ordered (--order): rounds or cases
  std::optional<double> tolerance, worst_tolerance;  ///< fractions (0.1 = 10%)
  unsigned reruns = 3;                ///< --reruns: extra rounds at most for runs made with the host elsewhere
  double model_line_ns = 0;           ///< the model's line transfer (line_transfer_same_socket)
  std::vector<double> host_line_ns;   ///< probed here before the first real run and after each; empty on one CPU
  std::size_t runs_in_state = 0, runs_off_state = 0;  ///< measured real runs (re-runs included) by the probes around them
  std::size_t reran = 0;              ///< re-runs made for runs the host spoiled
  /// --profile-costs: each scenario's behaviors are profiled first (one real run on one worker,
  /// `twinsched profile`), and its simulations charge each turn's own code from that profile.
  bool profile_costs = false;
};

}  // namespace twinsched::twin
