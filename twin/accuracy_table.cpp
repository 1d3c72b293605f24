// The accuracy matrix as text: the makespan table, the counters table and the summary lines.
#include "twin/accuracy_table.hpp"

#include <algorithm>
#include <string>

#include "twin/accuracy_host_check.hpp"
#include "twin/text_table.hpp"

namespace twinsched::twin {
namespace {

const auto fmt = figure_text;

/// 812, 12.3k, 20.00M: counts short enough for a table cell.
std::string count_text(double x) {
  if (x < 10'000) return fmt("%.0f", x);
  if (x < 999'950) return fmt("%.1fk", x / 1e3);  // not "1000.0k"
  return fmt("%.2fM", x / 1e6);
}

std::string ms_text(double ms) {
  if (ms < 10) return fmt("%.2f", ms);
  if (ms < 100) return fmt("%.1f", ms);
  return fmt("%.0f", ms);
}

std::string value_text(const accuracy_metric& m, double v) {
  if (m.points) return fmt("%.1f", v);
  if (const std::string k = m.key; k == "makespan_ms" || k == "cpu_ms" || k.starts_with("latency_")) return ms_text(v);
  return count_text(v);
}

std::string error_text(const accuracy_metric& m, const std::optional<double>& e) {
  if (!e) return "n/a";
  return fmt(m.points ? "%+.1fpp" : "%+.1f%%", *e);
}

std::vector<std::string> case_cells(const accuracy_case& c) {
  return {c.s.name, c.s.sched.policy, std::to_string(c.s.sched.workers)};
}

/// Whether a metric gets a column in the counters table: messages and peak threads only where
/// the real and simulated values differ in some case (otherwise they are the workload's own
/// count and the worker count), the rest where any case saw one.
bool shown(const accuracy_metric& m, const std::vector<accuracy_case>& cases) {
  const std::string key = m.key;
  const bool if_differ = key == "messages" || key == "peak_threads";
  for (const auto& c : cases) {
    if (!c.ok()) continue;
    const double r = m.real(c), s = m.sim(c);
    if (if_differ ? r != s : (r != 0 || s != 0)) return true;
  }
  return false;
}

std::string pct(double fraction) { return fmt("%g%%", fraction * 100); }

void print_makespans(std::ostream& out, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                     bool markdown) {
  const accuracy_metric& makespan = accuracy_metrics()[0];
  out << (markdown ? "### " : "") << "Makespan: real ("
      << (setup.runs == 1 ? "1 run" : "median of " + std::to_string(setup.runs) + " runs") << " after " << setup.warmup
      << " warm-up" << (setup.warmup == 1 ? "" : "s")
      << (setup.order == "rounds" ? ", in rounds over the matrix" : ", one case's runs in a row") << ", on this machine's "
      << setup.host_cores << " cores) vs simulated (" << setup.machine
      << ", one modeled core per worker, adaptive's extra threads included"
      << (setup.profile_costs ? "; each turn's own code charged from the scenario's 1-worker profile" : "")
      << "); error = (sim - real) / real\n\n";
  text_table t{{"scenario", "policy", "workers", "real ms", "real spread", "sim ms", "error"},
               {false, false, true, true, true, true, true},
               {}};
  for (const auto& c : cases) {
    auto row = case_cells(c);
    const bool has_real = !c.real_runs_s.empty(), has_sim = c.sim.run.wall_s > 0;
    row.push_back(has_real ? ms_text(c.real.wall_s * 1e3) : "-");
    if (has_real && c.real_runs_s.size() > 1) {
      const auto [lo, hi] = std::minmax_element(c.real_runs_s.begin(), c.real_runs_s.end());
      row.push_back(c.real.wall_s > 0 ? fmt("%.0f%%", 100 * (*hi - *lo) / c.real.wall_s) : "-");
    } else {
      row.push_back("-");
    }
    row.push_back(has_sim ? ms_text(c.sim.run.wall_s * 1e3) : "-");
    row.push_back(!c.ok() ? "FAIL" : error_text(makespan, metric_error(makespan, c)) + (c.host_moved ? " *" : ""));
    t.rows.push_back(row);
  }
  t.print(out, markdown);
}

void print_counters(std::ostream& out, const std::vector<accuracy_case>& cases, bool markdown) {
  const auto& metrics = accuracy_metrics();
  out << '\n' << (markdown ? "### " : "") << "Busy share and counters: real / sim, error (busy share in percentage points)\n\n";
  text_table k{{"scenario", "policy", "workers"}, {false, false, true}, {}};
  std::vector<const accuracy_metric*> cols;
  for (std::size_t i = 1; i < metrics.size(); ++i)
    if (shown(metrics[i], cases)) {
      cols.push_back(&metrics[i]);
      k.head.push_back(metrics[i].label);
      k.right.push_back(true);
    }
  for (const auto& c : cases) {
    auto row = case_cells(c);
    for (const auto* m : cols) {
      const double r = m->real(c), s = m->sim(c);
      if (!c.ok()) row.push_back("-");
      else if (!m->points && r == 0 && s == 0) row.push_back("0 / 0");
      else row.push_back(value_text(*m, r) + " / " + value_text(*m, s) + " " + error_text(*m, metric_error(*m, c)));
    }
    k.rows.push_back(row);
  }
  k.print(out, markdown);
}

}  // namespace

void print_accuracy(std::ostream& out, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                    const accuracy_summary& sum, bool markdown) {
  const auto& metrics = accuracy_metrics();
  print_makespans(out, setup, cases, markdown);
  print_counters(out, cases, markdown);
  const std::string b = markdown ? "- " : "";
  out << '\n';
  for (const auto& c : cases)
    if (!c.ok()) out << b << "FAILED " << case_name(c.s) << ": " << c.failure << '\n';
  out << b << "cases: " << sum.cases << " (" << sum.compared << " compared, " << sum.failed << " failed";
  if (sum.host_moved) out << ", " << sum.host_moved << " left out: the host was elsewhere";
  out << ")\n";
  if (const std::string host = host_check_text(setup, sum); !host.empty())
    out << b << (host_matches_model(setup, sum) ? "host check: " : "HOST CHECK FAILED: ") << host << '\n';
  if (sum.compared) {
    out << b << makespan_summary(sum) << '\n';
    out << b << "median |error| of the counters (over the cases where they are not 0 on both sides):";
    bool first = true;
    for (std::size_t i = 1; i < metrics.size(); ++i) {
      if (!shown(metrics[i], cases) || !sum.metric_median_abs[i]) continue;
      out << (first ? " " : ", ") << metrics[i].label << ' '
          << fmt(metrics[i].points ? "%.1fpp" : "%.1f%%", *sum.metric_median_abs[i]);
      first = false;
    }
    out << (first ? " none\n" : "\n");
  }
  if (setup.tolerance || setup.worst_tolerance) {
    out << b << "tolerance:";
    if (setup.tolerance) out << " median |makespan error| <= " << pct(*setup.tolerance);
    if (setup.worst_tolerance) out << (setup.tolerance ? "," : "") << " worst |makespan error| <= " << pct(*setup.worst_tolerance);
    out << (sum.failed ? " (and no failed case)" : "") << ": " << (within_tolerance(setup, sum) ? "PASS" : "FAIL") << '\n';
  }
}

}  // namespace twinsched::twin
