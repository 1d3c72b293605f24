// The statistic every benchmark table reports: the median of its runs (robust to one preempted run).
#pragma once
#include <algorithm>
#include <vector>

namespace twinsched::bench {

/// The middle value (the upper one for an even count); 0 for no runs.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace twinsched::bench
