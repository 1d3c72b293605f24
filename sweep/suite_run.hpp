// `twinsched suite` as one call: the plan (every check before any cell runs), the cells here with progress,
// then the table or JSON and the HTML page.
#pragma once
#include <iosfwd>

#include "sweep/suite_plan.hpp"
#include "sweep/sweep_run.hpp"

namespace twinsched {

/// Runs the suite `r` asks for: progress and each failed cell on `d`, the table (or with r.json
/// the JSON) on `out`, the report's path on `err`. Returns 0 when every cell is OK, else 1.
/// Throws scenario_error for a bad suite, benchmark or flag, files::path_error for a bad
/// --report path, before any cell runs.
int run_suite(const suite_request& r, sweep_display& d, std::ostream& out, std::ostream& err);

}  // namespace twinsched
