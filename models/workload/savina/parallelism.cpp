// Savina's parallelism group: its data-parallel kernels and its searches, each half gathered by its
// own file (parallelism_data.cpp, parallelism_search.cpp).
#include "savina.hpp"

namespace twinsched {
std::vector<workload_info> savina_parallelism_workloads() {
  auto all = savina_parallelism_data_workloads();
  for (auto& w : savina_parallelism_search_workloads()) all.push_back(std::move(w));
  return all;
}
}  // namespace twinsched
