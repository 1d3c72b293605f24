// A scaling table as a report page: msgs/s and speed-up over core counts, one curve per series, error bars over repeats.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace twinsched::viz {

/// One run of a table (`sim --cores 1,2,4`, a sweep, an accuracy matrix): repeats of the same
/// (series, cores) are drawn as their mean with a bar from the least to the most.
struct scaling_point {
  std::string series;  ///< a curve: a policy, "sim" or "real", ...
  unsigned cores = 1;
  double makespan_s = 0, msgs_per_s = 0;
};

/// The page: speed-up over each series' fewest cores, msgs/s, and the table.
void write_scaling_report(std::ostream& out, const std::string& title, const std::string& note,
                          const std::vector<scaling_point>& points);

}  // namespace twinsched::viz
