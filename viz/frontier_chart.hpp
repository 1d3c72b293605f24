// The latency-CPU frontier as a standalone SVG: one dot per configuration, CPU per request across, p99 latency up, the Pareto front joined.
#pragma once
#include <string>
#include <vector>

namespace twinsched::viz {

struct frontier_dot {
  std::string label;  ///< beside the dot (the policy)
  std::string group;  ///< its color and legend entry (the idle strategy)
  double cpu_ns = 0;  ///< across: CPU per request
  double p99_ns = 0;  ///< up: p99 latency
  bool front = false; ///< on the Pareto front: ringed, and joined to the others on it
};

/// Both axes logarithmic (the strategies differ by orders of magnitude); `title` and `note`
/// head the picture.
std::string frontier_svg(const std::vector<frontier_dot>& dots, const std::string& title, const std::string& note);

}  // namespace twinsched::viz
