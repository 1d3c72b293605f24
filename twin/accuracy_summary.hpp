// The accuracy matrix's comparison: the metrics compared per case, their signed errors, the summary and the tolerance verdict.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "twin/accuracy_case.hpp"

namespace twinsched::twin {

/// A quantity compared per case. Relative metrics (makespan, counters) have the error
/// (sim - real) / real in percent; busy share, already a percentage, has sim - real in
/// percentage points.
struct accuracy_metric {
  const char* key;    ///< JSON key
  const char* label;  ///< column heading
  bool points;        ///< error in percentage points, not relative
  double (*real)(const accuracy_case&);
  double (*sim)(const accuracy_case&);
};
/// Makespan first, then busy share and the counters every run_result has.
const std::vector<accuracy_metric>& accuracy_metrics();

/// The signed error of one metric for one case; empty when undefined (a relative metric with
/// real 0 and sim not 0: "n/a"). Both 0 is an error of 0.
std::optional<double> metric_error(const accuracy_metric& m, const accuracy_case& c);

/// Median of the values (mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> v);

struct accuracy_summary {
  std::size_t cases = 0, compared = 0, failed = 0;
  std::size_t host_moved = 0;       ///< cases left out: no real run of theirs found the host in the model's state
  double median_abs_error_pct = 0;  ///< |makespan error| over the compared cases
  double worst_abs_error_pct = 0;
  std::string worst_case;           ///< "scenario policy Nw" of the worst
  std::size_t within_10 = 0, within_25 = 0;  ///< compared cases with |makespan error| <= 10% / 25%
  /// Per metric (accuracy_metrics() order, makespan included): median |error| over the
  /// compared cases where it is defined and, for a counter, not 0 on both sides (a policy
  /// that never steals says nothing about steals); empty when there is no such case.
  std::vector<std::optional<double>> metric_median_abs;
};
accuracy_summary summarize(const std::vector<accuracy_case>& cases);

/// True when the summary meets both tolerances that were given (and no case failed).
bool within_tolerance(const accuracy_setup& setup, const accuracy_summary& sum);

/// "makespan |error|: median M%, worst W% (case); within 10%: a of n, within 25%: b of n".
std::string makespan_summary(const accuracy_summary& sum);

/// One figure through a printf format ("%.1f ns").
std::string figure_text(const char* format, double x);

}  // namespace twinsched::twin
