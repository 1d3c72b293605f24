// The accuracy matrix as one JSON object: setup, every case, summary, host check, verdict.
#include "twin/accuracy_json.hpp"

#include <variant>

#include "models/workload/workload.hpp"
#include "twin/accuracy_host_check.hpp"

namespace twinsched::twin {

nlohmann::json accuracy_json(const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                             const accuracy_summary& sum) {
  using nlohmann::json;
  const auto& metrics = accuracy_metrics();
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json jc = json::array();
  for (const auto& c : cases) {
    json params = json::object();
    const workload_info* w = find_workload(c.s.workload);
    const auto values = w ? with_defaults(*w, c.s.workload_params).values : c.s.workload_params;
    for (const auto& [k, v] : values) std::visit([&, &key = k](const auto& x) { params[key] = x; }, v);
    json real = {{"runs_s", c.real_runs_s}, {"off_state_runs_s", c.off_state_runs_s}, {"ok", c.real.ok()}}, sim = {{"ok", c.sim.ok()}, {"real_s", c.sim.real_s}},
         err = json::object();
    for (const auto& m : metrics) {
      real[m.key] = m.real(c);
      sim[m.key] = m.sim(c);
      err[m.key] = c.ok() ? opt(metric_error(m, c)) : json(nullptr);
    }
    jc.push_back({{"scenario", c.s.name},
                  {"source", c.s.source},
                  {"workload", c.s.workload},
                  {"params", params},
                  {"policy", c.s.sched.policy},
                  {"idle", c.s.sched.idle.strategy},
                  {"workers", c.s.sched.workers},
                  {"cores", c.s.sched.workers},
                  {"seed", c.s.seed},
                  {"ok", c.ok()},
                  {"failure", c.failure},
                  {"host_moved", c.host_moved},
                  {"real", real},
                  {"sim", sim},
                  {"error", err}});
  }
  json medians = json::object();
  for (std::size_t i = 0; i < metrics.size(); ++i) medians[metrics[i].key] = opt(sum.metric_median_abs[i]);
  return {{"machine", setup.machine},
          {"host_cores", setup.host_cores},
          {"runs", setup.runs},
          {"warmup", setup.warmup},
          {"order", setup.order},
          {"reruns", setup.reruns},
          {"profile_costs", setup.profile_costs},
          {"error_definition",
           "relative metrics: 100 * (sim - real) / real, null when real is 0 and sim is not; busy_pct: sim - real in "
           "percentage points; real = the median of the measured runs made in the model's host state (of all of them when "
           "none was: host_moved, left out of the summary); summary.median_abs_error: per metric, over the "
           "compared cases where it is defined and, for a counter, not 0 on both sides"},
          {"cases", jc},
          {"summary",
           {{"cases", sum.cases},
            {"compared", sum.compared},
            {"failed", sum.failed},
            {"host_moved", sum.host_moved},
            {"median_abs_makespan_error_pct", sum.median_abs_error_pct},
            {"worst_abs_makespan_error_pct", sum.worst_abs_error_pct},
            {"worst_case", sum.worst_case},
            {"within_10pct", sum.within_10},
            {"within_25pct", sum.within_25},
            {"median_abs_error", medians}}},
          {"host_check",
           {{"model_line_transfer_ns", setup.model_line_ns},
            {"host_line_transfer_ns", setup.host_line_ns},
            {"runs_in_state", setup.runs_in_state},
            {"runs_off_state", setup.runs_off_state},
            {"reran", setup.reran},
            {"matches", host_matches_model(setup, sum)}}},
          {"tolerance_pct", opt(setup.tolerance ? std::optional(*setup.tolerance * 100) : std::nullopt)},
          {"worst_tolerance_pct",
           opt(setup.worst_tolerance ? std::optional(*setup.worst_tolerance * 100) : std::nullopt)},
          {"pass", within_tolerance(setup, sum)}};
}

}  // namespace twinsched::twin
