// The Savina benchmark suite (Imam and Sarkar, AGERE 2014) as stock workloads, one function per
// group of the paper: micro-benchmarks, concurrency and parallelism. Each workload is named
// `savina-<benchmark>` and has a scenario file under scenarios/savina/ with Savina's defaults.
#pragma once
#include <vector>

#include "../workload.hpp"

namespace twinsched {
/// A Savina benchmark whose actors compute or only pass messages: none busy-waits (barber,
/// cigsmok and uct do, and derive from workload itself).
class savina_workload : public workload {
 public:
  bool burns() const override { return false; }
};

std::vector<workload_info> savina_micro_workloads();
std::vector<workload_info> savina_concurrency_workloads();
std::vector<workload_info> savina_parallelism_workloads();  ///< the next two together
std::vector<workload_info> savina_parallelism_data_workloads();
std::vector<workload_info> savina_parallelism_search_workloads();
}  // namespace twinsched
