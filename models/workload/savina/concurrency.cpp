// Savina's concurrency group: the list its benchmarks register through.
#include "savina.hpp"

namespace twinsched {
std::vector<workload_info> savina_concurrency_workloads() { return {}; }
}  // namespace twinsched
