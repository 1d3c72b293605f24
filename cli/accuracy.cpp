// The accuracy matrix: real runs against simulations case by case, signed errors, the summary, as a table or JSON.
#include "cli/accuracy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>

#include "models/workload/workload.hpp"
#include "twin/calibrate.hpp"

namespace twinsched::cli {
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

std::string fmt(const char* f, double x) {
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

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
  if (std::string(m.key) == "makespan_ms") return ms_text(v);
  return count_text(v);
}

std::string error_text(const accuracy_metric& m, const std::optional<double>& e) {
  if (!e) return "n/a";
  return fmt(m.points ? "%+.1fpp" : "%+.1f%%", *e);
}

/// Rows of cells printed as an aligned text table or a Markdown table.
struct table {
  std::vector<std::string> head;
  std::vector<bool> right;  ///< right-aligned column (numbers)
  std::vector<std::vector<std::string>> rows;

  void print(std::ostream& out, bool markdown) const {
    if (markdown) {
      auto line = [&](const std::vector<std::string>& cells) {
        out << '|';
        for (const auto& c : cells) out << ' ' << c << " |";
        out << '\n';
      };
      line(head);
      out << '|';
      for (std::size_t i = 0; i < head.size(); ++i) out << (right[i] ? "---:|" : "---|");
      out << '\n';
      for (const auto& r : rows) line(r);
      return;
    }
    std::vector<std::size_t> w(head.size());
    for (std::size_t i = 0; i < head.size(); ++i) w[i] = head[i].size();
    for (const auto& r : rows)
      for (std::size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], r[i].size());
    auto line = [&](const std::vector<std::string>& cells) {
      std::string s;
      for (std::size_t i = 0; i < cells.size(); ++i) {
        const std::string pad(w[i] - cells[i].size(), ' ');
        s += (i ? "  " : "") + (right[i] ? pad + cells[i] : cells[i] + pad);
      }
      while (!s.empty() && s.back() == ' ') s.pop_back();
      out << s << '\n';
    };
    line(head);
    for (const auto& r : rows) line(r);
  }
};

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

}  // namespace

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

bool probe_matches(const accuracy_setup& setup, double probe_ns) {
  return setup.model_line_ns <= 0 || same_line_state(probe_ns, setup.model_line_ns);
}

bool host_matches_model(const accuracy_setup& setup, const accuracy_summary& sum) {
  return sum.host_moved == 0 && (setup.runs_in_state > 0 || setup.runs_off_state == 0);
}

std::string host_check_text(const accuracy_setup& setup, const accuracy_summary& sum) {
  const auto& p = setup.host_line_ns;
  if (p.empty()) return "";
  std::string t = "line transfer here: " + fmt("%.1f ns before the real runs", p.front());
  if (p.size() > 1) {
    const auto [lo, hi] = std::minmax_element(p.begin(), p.end());
    t += fmt(", %.1f after", p.back()) + fmt(" (%.1f", *lo) + fmt("-%.1f", *hi) + " over " + std::to_string(p.size()) +
         " probes, one after each run)";
  }
  t += fmt("; the model: %.1f ns", setup.model_line_ns);
  const std::size_t runs = setup.runs_in_state + setup.runs_off_state;
  if (runs) {
    t += "; " + std::to_string(setup.runs_in_state) + " of " + std::to_string(runs) +
         " measured runs in the model's state (both probes around the run within 2x";
    if (setup.reran) t += "; " + std::to_string(setup.reran) + " of the " + std::to_string(runs) + " re-runs, for runs the host spoiled";
    t += ")";
  }
  if (runs && setup.runs_in_state == 0)
    t += ". Not one: this machine is not in the state the model was calibrated in (a VM whose host moved its CPUs, "
         "another machine), and every case between cores is judged against the wrong machine. Run `twinsched "
         "calibrate -o FILE` now and pass --machine FILE";
  if (sum.host_moved)
    t += ". " + std::to_string(sum.host_moved) + " case" + (sum.host_moved == 1 ? " has" : "s have") +
         " no real run in that state and " + (sum.host_moved == 1 ? "is" : "are") +
         " left out of the summary (marked *): this machine was not in the state the model was calibrated in (a VM "
         "whose host moved its CPUs, another machine), and a case between cores would be judged against the wrong "
         "machine. Run `twinsched calibrate -o FILE` now and pass --machine FILE";
  return t;
}

std::string makespan_summary(const accuracy_summary& sum) {
  return "makespan |error|: median " + fmt("%.1f%%", sum.median_abs_error_pct) + ", worst " +
         fmt("%.1f%%", sum.worst_abs_error_pct) + " (" + sum.worst_case + "); within 10%: " + std::to_string(sum.within_10) +
         " of " + std::to_string(sum.compared) + ", within 25%: " + std::to_string(sum.within_25) + " of " +
         std::to_string(sum.compared);
}

void print_accuracy(std::ostream& out, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                    const accuracy_summary& sum, bool markdown) {
  const auto& metrics = accuracy_metrics();
  const std::string h = markdown ? "### " : "";
  out << h << "Makespan: real (" << (setup.runs == 1 ? "1 run" : "median of " + std::to_string(setup.runs) + " runs")
      << " after " << setup.warmup << " warm-up" << (setup.warmup == 1 ? "" : "s")
      << (setup.order == "rounds" ? ", in rounds over the matrix" : ", one case's runs in a row") << ", on this machine's "
      << setup.host_cores << " cores) vs simulated ("
      << setup.machine << ", one modeled core per worker, adaptive's extra threads included); error = (sim - real) / real\n\n";
  table t{{"scenario", "policy", "workers", "real ms", "real spread", "sim ms", "error"},
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
    row.push_back(!c.ok() ? "FAIL" : error_text(metrics[0], metric_error(metrics[0], c)) + (c.host_moved ? " *" : ""));
    t.rows.push_back(row);
  }
  t.print(out, markdown);

  out << '\n' << h << "Busy share and counters: real / sim, error (busy share in percentage points)\n\n";
  table k{{"scenario", "policy", "workers"}, {false, false, true}, {}};
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

}  // namespace twinsched::cli
