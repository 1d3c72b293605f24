// Savina's parallelism group, its data-parallel kernels: the list they register through.
#include "savina.hpp"

namespace twinsched {
workload_info savina_trapezoid_workload();
workload_info savina_recmatmul_workload();
workload_info savina_radixsort_workload();
workload_info savina_bitonicsort_workload();
workload_info savina_apsp_workload();
workload_info savina_sor_workload();
workload_info savina_filterbank_workload();
workload_info savina_piprecision_workload();

std::vector<workload_info> savina_parallelism_data_workloads() {
  return {
      savina_trapezoid_workload(),
      savina_recmatmul_workload(),
      savina_radixsort_workload(),
      savina_bitonicsort_workload(),
      savina_apsp_workload(),
      savina_sor_workload(),
      savina_filterbank_workload(),
      savina_piprecision_workload(),
  };
}
}  // namespace twinsched
