// Savina's parallelism group, its searches and divide-and-conquer benchmarks: the list they register through.
#include "savina.hpp"

namespace twinsched {
std::vector<workload_info> savina_parallelism_search_workloads() { return {}; }
}  // namespace twinsched
