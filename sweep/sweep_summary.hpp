// A sweep's closing lines: how many cells are OK, failed or missing, where the results are, and the HTML report.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "sweep/result_files.hpp"
#include "sweep/sweep_run.hpp"

namespace twinsched {

/// "1 cell", "3 cells".
std::string plural(std::size_t n, const std::string& what);
/// "0.25" below 10, "12.5" above: a rate on the progress line.
std::string fixed_rate(double r);

/// Counters and the progress line of the cells run here (sweep and suite alike).
struct cell_tally {
  std::size_t total = 0, done = 0, ok = 0, fail = 0, error = 0;
  /// "3/8 cells, 1 failed, 0.50 cells/s, 6.0 s elapsed, ETA 10 s".
  std::string status(const sweep_display& d) const;
  void count(const sweep_row& r);
};
/// Prints the sweep's summary ("sweep NAME: N cells; RAN; ok OK, ...") and the result files'
/// paths, then writes r.report if asked. Returns 0 if every cell has an OK row, else 1.
int finish_sweep(const sweep_request& r, const sweep_spec& spec, const std::vector<sweep_cell>& cells,
                 const result_files& results, const std::string& ran, std::ostream& out);

}  // namespace twinsched
