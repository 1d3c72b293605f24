// Savina's parallelism group, its searches and divide-and-conquer benchmarks: the list they register through.
#include "savina.hpp"

namespace twinsched {
workload_info savina_fib_workload();
workload_info savina_sieve_workload();
workload_info savina_nqueenk_workload();
workload_info savina_quicksort_workload();
workload_info savina_facloc_workload();
workload_info savina_uct_workload();
workload_info savina_astar_workload();

std::vector<workload_info> savina_parallelism_search_workloads() {
  return {savina_fib_workload(), savina_sieve_workload(), savina_nqueenk_workload(), savina_quicksort_workload(),
          savina_facloc_workload(), savina_uct_workload(), savina_astar_workload()};
}
}  // namespace twinsched
