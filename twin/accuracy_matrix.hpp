// The accuracy matrix's cases: scenarios x policies x worker counts, those the configuration allows.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "twin/accuracy_case.hpp"

namespace twinsched::twin {

/// What the matrix is made of, as the command line gives it.
struct matrix_request {
  std::vector<std::string> scenarios;  ///< stock names or paths; empty: every stock scenario except sim_*
  std::vector<std::string> policies;   ///< empty: every policy
  std::vector<std::string> idles;      ///< idle strategies, each case named SCENARIO+IDLE; empty: each scenario's own
  std::vector<std::string> params;     ///< KEY=VALUE set in every scenario
  std::optional<std::uint64_t> seed;   ///< every scenario's seed; empty: each keeps its own
  std::vector<std::uint32_t> workers;  ///< empty: 1 and 2, those within host_cores
};

/// The stock workloads: the scenario files in `folder` except the sim_* ones (the simulator's
/// findings, sized for many modeled cores).
std::vector<std::string> stock_accuracy_files(const std::string& folder);

/// The cases, scenario by scenario, then policy, then worker count, untraced. A combination
/// the configuration refuses (donation without groups, adaptive outside its thread range) is
/// skipped with a line on `log`, as is a default worker count above host_cores. Throws
/// scenario_error ("command line: ...") before loading anything for a worker count above
/// host_cores, for a scenario that does not load, a bad --param, or when no case is left.
std::vector<accuracy_case> build_matrix(const matrix_request& r, unsigned host_cores, std::ostream& log);

}  // namespace twinsched::twin
