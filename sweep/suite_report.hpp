// A suite's HTML page: the table, then per benchmark the time per policy over worker counts (real) beside
// the simulated time over core counts (sim), drawn by viz/category_chart.
#pragma once
#include <ostream>

#include "sweep/suite_table.hpp"

namespace twinsched {

/// Writes a self-contained HTML page (inline SVG, no scripts): the suite's table with failed
/// cells marked, the best configuration per benchmark, and a chart per benchmark and backend
/// (a line per policy; only passing cells are drawn).
void write_suite_report(std::ostream& out, const suite_plan& p, const suite_rows& rows);

}  // namespace twinsched
