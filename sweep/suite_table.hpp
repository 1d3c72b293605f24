// A suite's results: the table (benchmark x policy, a column per backend and worker or core count, the verdict),
// the best configuration per benchmark, and the same as JSON.
#pragma once
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep/suite_plan.hpp"
#include "sweep/sweep_row.hpp"

namespace twinsched {

/// The rows of a suite's cells, by cell key.
using suite_rows = std::map<std::string, sweep_row>;

/// One column of the table: a backend and its worker (real) or core (sim) count.
struct suite_column {
  std::string backend, count;
};

/// The table's columns, in the plan's order (real, then sim; counts as given).
std::vector<suite_column> suite_columns(const suite_plan& p);

/// The row of (benchmark, policy, column), or null when the cell was left out or did not run.
const sweep_row* suite_row(const suite_plan& p, const suite_rows& rows, const suite_benchmark& b,
                           const std::string& policy, const suite_column& c);

/// A benchmark's fastest passing cell on a backend: lowest makespan (wall time on real cores,
/// simulated time in simulation); ties go to the earlier policy and count.
struct suite_best {
  std::string policy, count;
  double time_s = 0;
};
std::optional<suite_best> best_cell(const suite_plan& p, const suite_rows& rows, const suite_benchmark& b,
                                    const std::string& backend);

/// "850 us", "12.3 ms", "1.25 s".
std::string time_text(double s);

/// The table: a line per benchmark and policy that applies to it, a column per configuration
/// (its time, or FAIL / ERROR, "n/a" where the policy cannot run there, "-" not run), the verdict;
/// then the best configuration per benchmark and backend, and what was left out and why.
void print_suite_table(std::ostream& out, const suite_plan& p, const suite_rows& rows);

/// {"suite", "folder", "rows": [{benchmark, scenario, backend, policy, workers, cores (sim),
/// time_s, verdict, messages, msgs_per_s, error, wall_s}], "best": [{benchmark, backend,
/// policy, workers or cores, time_s}], "skipped": [{benchmark, backend, policy, workers or
/// cores, reason}]}.
nlohmann::ordered_json suite_json(const suite_plan& p, const suite_rows& rows);

/// True when every cell that ran is OK and every cell of the plan ran.
bool suite_ok(const suite_plan& p, const suite_rows& rows);

}  // namespace twinsched
