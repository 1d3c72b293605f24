// The list of workloads twinsched ships.
#include "builtins.hpp"

#include "savina/savina.hpp"

namespace twinsched {
std::vector<workload_info> builtin_workloads() {
  std::vector<workload_info> all{forward_workload(),     pingpong_workload(), pi_workload(),   skewed_workload(),
                                 fanout_idle_workload(), pool_workload(),     burst_workload(),
                                 open_loop_workload()};
  for (auto group : {savina_micro_workloads, savina_concurrency_workloads, savina_parallelism_workloads})
    for (auto& w : group()) all.push_back(std::move(w));
  return all;
}
}  // namespace twinsched
