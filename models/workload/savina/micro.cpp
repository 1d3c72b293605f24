// Savina's micro group: the list its benchmarks register through, in Savina's order.
#include "savina.hpp"

namespace twinsched {
workload_info savina_pingpong_workload();
workload_info savina_count_workload();
workload_info savina_fjthrput_workload();
workload_info savina_fjcreate_workload();
workload_info savina_threadring_workload();
workload_info savina_chameneos_workload();
workload_info savina_big_workload();

std::vector<workload_info> savina_micro_workloads() {
  return {savina_pingpong_workload(), savina_count_workload(), savina_fjthrput_workload(),
          savina_fjcreate_workload(), savina_threadring_workload(),
          savina_chameneos_workload(), savina_big_workload()};
}
}  // namespace twinsched
