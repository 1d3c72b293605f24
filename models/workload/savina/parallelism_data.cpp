// Savina's parallelism group, its data-parallel kernels: the list they register through.
#include "savina.hpp"

namespace twinsched {
std::vector<workload_info> savina_parallelism_data_workloads() { return {}; }
}  // namespace twinsched
