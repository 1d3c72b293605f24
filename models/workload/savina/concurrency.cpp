// Savina's concurrency group: the list its benchmarks register through, in Savina's order.
#include "savina.hpp"

namespace twinsched {
workload_info savina_concdict_workload();
workload_info savina_concsll_workload();
workload_info savina_bndbuffer_workload();
workload_info savina_philosopher_workload();
workload_info savina_barber_workload();
workload_info savina_cigsmok_workload();
workload_info savina_logmap_workload();
workload_info savina_banking_workload();

std::vector<workload_info> savina_concurrency_workloads() {
  return {
      savina_concdict_workload(),
      savina_concsll_workload(),
      savina_bndbuffer_workload(),
      savina_philosopher_workload(),
      savina_barber_workload(),
      savina_cigsmok_workload(),
      savina_logmap_workload(),
      savina_banking_workload(),
  };
}
}  // namespace twinsched
