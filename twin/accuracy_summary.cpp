// The accuracy matrix's comparison: the metrics compared per case, their signed errors, the summary and the tolerance verdict.
#include "twin/accuracy_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace twinsched::twin {
namespace {

std::uint64_t total(const run_result& r, std::uint64_t worker_stats::*field) {
  std::uint64_t t = 0;
  for (const auto& w : r.per_worker) t += w.*field;
  return t;
}

/// Busy time over busy + idle time, summed over every worker slot, in percent.
double busy_pct(const run_result& r) {
  const double busy = double(total(r, &worker_stats::busy_ns)), idle = double(total(r, &worker_stats::idle_ns));
  return busy + idle > 0 ? 100.0 * busy / (busy + idle) : 0.0;
}

template <std::uint64_t worker_stats::*F>
accuracy_metric counter(const char* key, const char* label) {
  return {key, label, false, [](const accuracy_case& c) { return double(total(c.real, F)); },
          [](const accuracy_case& c) { return double(total(c.sim.run, F)); }};
}

}  // namespace

std::string figure_text(const char* format, double x) {
  char b[64];
  std::snprintf(b, sizeof b, format, x);
  return b;
}

std::string case_name(const scenario& s) {
  return s.name + " " + s.sched.policy + " " + std::to_string(s.sched.workers) + "w";
}

const std::vector<accuracy_metric>& accuracy_metrics() {
  static const std::vector<accuracy_metric> m{
      {"makespan_ms", "makespan ms", false, [](const accuracy_case& c) { return c.real.wall_s * 1e3; },
       [](const accuracy_case& c) { return c.sim.run.wall_s * 1e3; }},
      {"busy_pct", "busy %", true, [](const accuracy_case& c) { return busy_pct(c.real); },
       [](const accuracy_case& c) { return busy_pct(c.sim.run); }},
      counter<&worker_stats::messages>("messages", "messages"),
      counter<&worker_stats::turns>("turns", "turns"),
      counter<&worker_stats::steals>("steals", "steals"),
      counter<&worker_stats::parks>("parks", "parks"),
      counter<&worker_stats::wakeups>("wakeups", "wake-ups"),
      counter<&worker_stats::donations>("donations", "donations"),
      counter<&worker_stats::migrations>("migrations", "migrations"),
      {"peak_threads", "peak threads", false, [](const accuracy_case& c) { return double(c.real.peak_workers); },
       [](const accuracy_case& c) { return double(c.sim.run.peak_workers); }},
      // what an idle strategy trades: the workers' CPU time, and the requests' latency (open-loop)
      {"cpu_ms", "CPU ms", false, [](const accuracy_case& c) { return double(c.real.cpu_ns()) * 1e-6; },
       [](const accuracy_case& c) { return double(c.sim.run.cpu_ns()) * 1e-6; }},
      {"latency_p50_us", "p50 us", false, [](const accuracy_case& c) { return double(c.real.request_latency.p50_ns) * 1e-3; },
       [](const accuracy_case& c) { return double(c.sim.run.request_latency.p50_ns) * 1e-3; }},
      {"latency_p99_us", "p99 us", false, [](const accuracy_case& c) { return double(c.real.request_latency.p99_ns) * 1e-3; },
       [](const accuracy_case& c) { return double(c.sim.run.request_latency.p99_ns) * 1e-3; }},
  };
  return m;
}

std::optional<double> metric_error(const accuracy_metric& m, const accuracy_case& c) {
  const double r = m.real(c), s = m.sim(c);
  if (m.points) return s - r;
  if (r == 0) return s == 0 ? std::optional<double>(0.0) : std::nullopt;
  return 100.0 * (s - r) / r;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

accuracy_summary summarize(const std::vector<accuracy_case>& cases) {
  accuracy_summary sum;
  sum.cases = cases.size();
  const auto& metrics = accuracy_metrics();
  std::vector<std::vector<double>> abs_errors(metrics.size());
  for (const auto& c : cases) {
    if (!c.ok()) {
      ++sum.failed;
      continue;
    }
    if (c.host_moved) {
      ++sum.host_moved;
      continue;
    }
    ++sum.compared;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
      const bool none = !metrics[i].points && metrics[i].real(c) == 0 && metrics[i].sim(c) == 0;
      if (auto e = metric_error(metrics[i], c); e && !none) abs_errors[i].push_back(std::fabs(*e));
    }
    const double e = std::fabs(metric_error(metrics[0], c).value_or(0));
    if (e > sum.worst_abs_error_pct || sum.worst_case.empty()) {
      sum.worst_abs_error_pct = e;
      sum.worst_case = case_name(c.s);
    }
    sum.within_10 += e <= 10;
    sum.within_25 += e <= 25;
  }
  sum.median_abs_error_pct = median(abs_errors[0]);
  for (const auto& v : abs_errors) sum.metric_median_abs.push_back(v.empty() ? std::nullopt : std::optional(median(v)));
  return sum;
}

bool within_tolerance(const accuracy_setup& setup, const accuracy_summary& sum) {
  if (sum.failed || sum.compared == 0) return false;
  if (setup.tolerance && sum.median_abs_error_pct > *setup.tolerance * 100) return false;
  if (setup.worst_tolerance && sum.worst_abs_error_pct > *setup.worst_tolerance * 100) return false;
  return true;
}

std::string makespan_summary(const accuracy_summary& sum) {
  return "makespan |error|: median " + figure_text("%.1f%%", sum.median_abs_error_pct) + ", worst " +
         figure_text("%.1f%%", sum.worst_abs_error_pct) + " (" + sum.worst_case + "); within 10%: " +
         std::to_string(sum.within_10) + " of " + std::to_string(sum.compared) + ", within 25%: " +
         std::to_string(sum.within_25) + " of " + std::to_string(sum.compared);
}

}  // namespace twinsched::twin
