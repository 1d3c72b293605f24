// Savina's micro group: the list its benchmarks register through.
#include "savina.hpp"

namespace twinsched {
std::vector<workload_info> savina_micro_workloads() { return {}; }
}  // namespace twinsched
