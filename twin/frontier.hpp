// The latency-CPU frontier: one load level run under each idle strategy x policy, each cell's p99 latency against the CPU it burned per request, the Pareto front marked.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::twin {

/// One idle strategy x policy: its runs, and their medians.
struct frontier_cell {
  std::string policy, idle;
  std::vector<run_result> runs;
  std::string error;  ///< not run: why (a policy the workload cannot use)
  // medians over the runs
  double p50_ns = 0, p99_ns = 0, p999_ns = 0;
  double cpu_per_request_ns = 0;  ///< the workers' CPU time over the requests (messages) they handled
  double cpu_share = 0;           ///< CPU time over (makespan x workers): 1 is every worker on a core all along
  double p99_low_ns = 0, p99_high_ns = 0, cpu_low_ns = 0, cpu_high_ns = 0;  ///< the runs' spread
  bool ok = true;                 ///< every run passed its verdict
  bool on_front = false;          ///< no other cell has both a lower p99 and less CPU per request
};

struct frontier_options {
  std::vector<std::string> policies, idles;  ///< the cells: every pair
  unsigned runs = 3;                         ///< launches per cell, alternated in rounds (simulated: 1)
  bool simulate = false;                     ///< on the simulated machine instead of real cores
  sim_options sim;                           ///< its options (machine, cores)
};

/// Runs `base` once per cell per round (round r runs every cell before round r + 1, so a
/// noisy minute of the host touches every cell alike), calling `each` after every run.
std::vector<frontier_cell> run_frontier(const scenario& base, const frontier_options& o,
                                        const std::function<void(const frontier_cell&, unsigned round)>& each);

/// Fills each cell's medians from its runs and marks the Pareto front (lower is better on
/// both p99 and CPU per request; cells that failed are on no front).
void summarize_frontier(std::vector<frontier_cell>& cells);

}  // namespace twinsched::twin
