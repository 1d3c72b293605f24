// The list of workloads twinsched ships.
#include "builtins.hpp"

namespace twinsched {
std::vector<workload_info> builtin_workloads() {
  return {forward_workload(), pingpong_workload(), pi_workload(),  skewed_workload(),
          fanout_idle_workload(), pool_workload(), burst_workload()};
}
}  // namespace twinsched
