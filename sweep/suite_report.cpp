// The suite's HTML page: its table and, per benchmark, real and simulated time per policy side by side.
#include "sweep/suite_report.hpp"

#include "viz/category_chart.hpp"
#include "viz/svg_chart.hpp"

namespace twinsched {
namespace {

using viz::html_escape;

/// x = the backend's worker or core counts, a line per policy that passed somewhere, y = time.
std::string time_chart(const suite_plan& p, const suite_rows& rows, const suite_benchmark& b, const sweep_spec& spec) {
  const std::string& backend = spec.backends.front();
  const auto& counts = spec.axes.back().values;
  std::vector<viz::category_line> lines;
  for (const auto& policy : p.policies) {
    viz::category_line line{policy, {}};
    for (std::size_t i = 0; i < counts.size(); ++i)
      if (const sweep_row* r = suite_row(p, rows, b, policy, {backend, counts[i]}); r && r->verdict == "OK")
        line.points[i].add(r->makespan_s);
    if (!line.points.empty()) lines.push_back(std::move(line));
  }
  if (lines.empty()) return "<p>No passing cell " + backend + ".</p>\n";
  const bool real = backend == "real";
  return viz::category_line_chart(counts, real ? "workers" : "simulated cores", lines,
                                  real ? viz::value_axis{"s", "wall time (s)"} : viz::value_axis{"s", "simulated time (s)"});
}

}  // namespace

void write_suite_report(std::ostream& out, const suite_plan& p, const suite_rows& rows) {
  std::size_t ok = 0, failed = 0;
  for (const auto& c : p.cells) {
    auto it = rows.find(c.key);
    (it != rows.end() && it->second.verdict == "OK" ? ok : failed) += 1;
  }
  out << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>suite " << html_escape(p.name) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em;max-width:90em}svg.chart{margin:0.5em 0;font-size:12px}"
         "h2{margin-top:1.5em}td,th{padding:2px 8px;text-align:right}td:first-child,td:nth-child(2){text-align:left}"
         ".fail{background:#fdd;font-weight:bold}.na{color:#999}.pair{display:flex;flex-wrap:wrap;gap:1em}"
         "</style></head><body>\n";
  out << "<h1>suite " << html_escape(p.name) << "</h1>\n<p>" << html_escape(p.folder) << ": " << p.benchmarks.size()
      << " benchmarks, " << p.cells.size() << " cells: " << ok << " OK, " << failed
      << " failed or not run. Times run from the workers' start to quiescence: wall time on real cores (Nw: N workers), "
         "simulated time in simulation (Nc: N simulated cores, a worker each).</p>\n";
  const auto cols = suite_columns(p);
  out << "<table><tr><th>benchmark</th><th>policy</th>";
  for (const auto& c : cols) out << "<th>" << html_escape(suite_config(c.backend, c.count)) << "</th>";
  out << "</tr>\n";
  for (const auto& b : p.benchmarks)
    for (const auto& policy : p.policies) {
      std::string cells;
      bool any = false;
      for (const auto& c : cols) {
        const sweep_row* r = suite_row(p, rows, b, policy, c);
        if (!r) {
          cells += "<td class=\"na\">-</td>";
          continue;
        }
        any = true;
        if (r->verdict == "OK")
          cells += "<td>" + time_text(r->makespan_s) + "</td>";
        else
          cells += "<td class=\"fail\" title=\"" + html_escape(r->error) + "\">" + r->verdict + "</td>";
      }
      if (any) out << "<tr><td>" << html_escape(b.name) << "</td><td>" << html_escape(policy) << "</td>" << cells << "</tr>\n";
    }
  out << "</table>\n";
  for (const auto& b : p.benchmarks) {
    out << "<h2>" << html_escape(b.name) << "</h2>\n<p>best:";
    for (const auto& spec : p.specs) {
      const std::string& backend = spec.backends.front();
      const auto best = best_cell(p, rows, b, backend);
      out << " " << backend << " "
          << (best ? html_escape(best->policy) + " at " + best->count + (backend == "real" ? "w" : "c") + ", " + time_text(best->time_s)
                   : std::string("none passed"))
          << ";";
    }
    out << "</p>\n<div class=\"pair\">\n";
    for (const auto& spec : p.specs) out << "<div><h3>" << spec.backends.front() << "</h3>\n" << time_chart(p, rows, b, spec) << "</div>\n";
    out << "</div>\n";
  }
  out << "</body></html>\n";
}

}  // namespace twinsched
