// The accuracy matrix: real runs against simulations case by case, signed errors, the summary, as a table or JSON.
#pragma once
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::cli {

/// One cell of the matrix: a scenario with its policy and worker count set, what the real
/// runs measured, what the simulation predicted.
struct accuracy_case {
  scenario s;                        ///< policy and workers already applied
  /// The measured (not warm-up) real makespans the case is judged on, in run order: those made
  /// while the host was in the model's state (the probes on both sides of the run agreed with
  /// the model), or every measured run if none was (then host_moved).
  std::vector<double> real_runs_s;
  std::vector<double> off_state_runs_s;  ///< measured runs made with the host in another state, left out of real_runs_s
  bool host_moved = false;           ///< no measured run found the host in the model's state: shown, left out of the summary
  run_result real;                   ///< the median run (for an even count, the faster of the two middle ones)
  sim_result sim;                    ///< one simulation on s.sched.workers modeled cores
  std::string failure;               ///< why the case has no comparison (a run threw or failed its verdict); empty if ok
  bool ok() const { return failure.empty(); }
};

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

/// What the run was asked to do, printed above the tables and stored in the JSON.
struct accuracy_setup {
  std::string machine;
  unsigned host_cores = 0;
  unsigned runs = 3, warmup = 1;
  std::string order = "rounds";  ///< how the real runs were ordered (--order)
  std::optional<double> tolerance, worst_tolerance;  ///< fractions (0.1 = 10%)
  unsigned reruns = 3;                ///< --reruns: extra rounds at most for runs made with the host elsewhere
  double model_line_ns = 0;           ///< the model's line transfer (line_transfer_same_socket)
  std::vector<double> host_line_ns;   ///< probed here before the first real run and after each; empty on one CPU
  std::size_t runs_in_state = 0, runs_off_state = 0;  ///< measured real runs (re-runs included) by the probes around them
  std::size_t reran = 0;              ///< re-runs made for runs the host spoiled
};

/// Whether one line-transfer probe finds this machine in the state its model describes:
/// within 2x of the model's figure (a VM host's two states differ by far more: same_line_state,
/// twin/calibrate.hpp). True when the model has no figure.
bool probe_matches(const accuracy_setup& setup, double probe_ns);
/// Whether the host check passes: no compared case was left out for want of a real run in the
/// model's state, and every probe matched unless re-runs replaced what the others spoiled.
bool host_matches_model(const accuracy_setup& setup, const accuracy_summary& sum);
/// "line transfer here: 73.8 ns before the real runs, 72.1 after (70.2-75.0 over 297 probes);
/// the model: 9.4 ns; ...", with how many runs were in the model's state, how many were re-run,
/// and when cases were left out what that means and what to do; empty when nothing was probed.
std::string host_check_text(const accuracy_setup& setup, const accuracy_summary& sum);

/// True when the summary meets both tolerances that were given (and no case failed).
bool within_tolerance(const accuracy_setup& setup, const accuracy_summary& sum);

/// "makespan |error|: median M%, worst W% (case); within 10%: a of n, within 25%: b of n".
std::string makespan_summary(const accuracy_summary& sum);

/// The two tables (makespan; busy share and counters as real/sim and error) and the summary
/// lines, aligned for a terminal or as Markdown.
void print_accuracy(std::ostream& out, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                    const accuracy_summary& sum, bool markdown);
/// The same as one JSON object: setup, cases (real, sim, error_pct per metric), summary, verdict.
nlohmann::json accuracy_json(const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                             const accuracy_summary& sum);

/// "forward stealing 2w": how progress lines and the summary name a case.
std::string case_name(const scenario& s);

}  // namespace twinsched::cli
