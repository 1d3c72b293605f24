// Savina's micro group: the list its benchmarks register through.
#include "savina.hpp"

namespace twinsched {
workload_info savina_pingpong_workload();

std::vector<workload_info> savina_micro_workloads() { return {savina_pingpong_workload()}; }
}  // namespace twinsched
