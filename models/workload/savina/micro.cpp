// Savina's micro group: the list its benchmarks register through.
#include "savina.hpp"

namespace twinsched {
workload_info savina_pingpong_workload();
workload_info savina_count_workload();

std::vector<workload_info> savina_micro_workloads() { return {savina_pingpong_workload(), savina_count_workload()}; }
}  // namespace twinsched
