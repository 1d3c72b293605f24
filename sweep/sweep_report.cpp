// The sweep report: the means of the cells a chart shows, averaged over the other axes, drawn by viz/category_chart.
#include "sweep/sweep_report.hpp"

#include <algorithm>

#include "viz/category_chart.hpp"
#include "viz/svg_chart.hpp"

namespace twinsched {
namespace {

using viz::html_escape;

int axis_index(const sweep_spec& spec, const std::string& name) {
  for (std::size_t i = 0; i < spec.axes.size(); ++i)
    if (spec.axes[i].name == name) return int(i);
  return -1;
}

/// The position of `v` among the axis's values (the spec's order), so charts follow it.
std::size_t order_of(const sweep_spec& spec, int axis, const std::string& v) {
  if (axis < 0) return 0;
  const auto& vals = spec.axes[std::size_t(axis)].values;
  return std::size_t(std::find(vals.begin(), vals.end(), v) - vals.begin());
}

const viz::value_axis msgs_per_s{"msgs/s", "msgs/s (mean)"};

/// x = `xa`'s values (in order), a line per value of `series_axis` (or one for all cells); with
/// `scenario` set, only the cells of that value of the scenario axis.
std::string line_chart(const sweep_spec& spec, const std::map<std::string, sweep_row>& rows,
                       const std::string& backend, int xa, int series_axis, const std::string& scenario = "") {
  const int sa = axis_index(spec, "scenario");
  std::map<std::string, viz::category_line> series;  // by name
  for (const auto& [key, r] : rows) {
    if (r.backend != backend || r.verdict != "OK") continue;
    if (sa >= 0 && !scenario.empty() && r.values[std::size_t(sa)] != scenario) continue;
    const std::string name = series_axis >= 0 ? r.values[std::size_t(series_axis)] : "all cells";
    viz::category_line& line = series[name];
    line.name = name;
    line.points[order_of(spec, xa, r.values[std::size_t(xa)])].add(r.msgs_per_s);
  }
  std::vector<viz::category_line> lines;
  for (auto& [name, line] : series) lines.push_back(std::move(line));
  const auto& axis = spec.axes[std::size_t(xa)];
  return viz::category_line_chart(axis.values, axis.name, lines, msgs_per_s);
}

std::string heat_map(const sweep_spec& spec, const std::map<std::string, sweep_row>& rows, const std::string& backend,
                     int xa, int ya) {
  const auto &x = spec.axes[std::size_t(xa)], &y = spec.axes[std::size_t(ya)];
  std::vector<std::vector<viz::mean_cell>> grid(y.values.size(), std::vector<viz::mean_cell>(x.values.size()));
  for (const auto& [key, r] : rows) {
    if (r.backend != backend || r.verdict != "OK") continue;
    grid[order_of(spec, ya, r.values[std::size_t(ya)])][order_of(spec, xa, r.values[std::size_t(xa)])].add(
        r.msgs_per_s);
  }
  return viz::heat_map_chart(x.values, y.values, x.name, y.name, grid, msgs_per_s, "no passing cell");
}

}  // namespace

std::pair<std::string, std::string> default_heat_axes(const sweep_spec& spec) {
  std::vector<std::string> names;
  for (const auto& a : spec.axes)
    if (a.values.size() > 1 && a.name != "seed") names.push_back(a.name);
  if (names.size() < 2) return {};
  return {names[0], names[1]};
}

void write_sweep_report(std::ostream& out, const sweep_spec& spec, const std::map<std::string, sweep_row>& rows,
                        const sweep_report_options& o) {
  std::size_t ok = 0, fail = 0, err = 0;
  for (const auto& [k, r] : rows) (r.verdict == "OK" ? ok : r.verdict == "FAIL" ? fail : err) += 1;
  out << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>sweep " << html_escape(spec.name) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em;max-width:70em}svg.chart{margin:1em 0;font-size:12px}"
         "h2{margin-top:1.5em}td,th{padding:2px 8px}</style></head><body>\n";
  std::string scenarios;
  for (auto& [from, s] : start_scenarios(spec))
    scenarios += (scenarios.empty() ? "" : ", ") + s->name + " (" + s->workload + ")";
  out << "<h1>sweep " << html_escape(spec.name) << "</h1>\n<p>" << html_escape(spec.source) << ": scenario"
      << (spec.axis_scenarios.size() > 1 ? "s " : " ") << html_escape(scenarios) << "; " << rows.size() << " cells: " << ok << " OK, " << fail << " FAIL, " << err
      << " ERROR. Values are messages per second (simulated seconds for sim), the mean over the passing cells of every "
         "axis not shown.</p>\n<table><tr><th>axis</th><th>values</th></tr>\n";
  for (const auto& a : spec.axes) {
    std::string vals;
    for (const auto& v : a.values) vals += (vals.empty() ? "" : ", ") + v;
    out << "<tr><td>" << html_escape(a.name) << "</td><td>" << html_escape(vals) << "</td></tr>\n";
  }
  out << "</table>\n";
  const int policy = axis_index(spec, "policy");
  int xa = axis_index(spec, "cores");
  if (xa < 0 || spec.axes[std::size_t(xa)].values.size() < 2) xa = axis_index(spec, "workers");
  auto heat = o.heat_x.empty() ? default_heat_axes(spec) : std::make_pair(o.heat_x, o.heat_y);
  const int hx = axis_index(spec, heat.first), hy = axis_index(spec, heat.second);
  for (const auto& backend : spec.backends) {
    if (xa >= 0 && spec.axis_scenarios.size() > 1) {  // msgs/s of different workloads are not averaged together
      for (auto& [from, s] : start_scenarios(spec)) {
        out << "<h2>Scaling per policy: " << html_escape(from) << " (" << backend << ")</h2>\n";
        out << line_chart(spec, rows, backend, xa, policy, from);
      }
    } else if (xa >= 0) {
      out << "<h2>Scaling per policy (" << backend << ")</h2>\n";
      out << line_chart(spec, rows, backend, xa, policy);
    }
    if (hx >= 0 && hy >= 0 && hx != hy) {
      out << "<h2>Heat map: " << html_escape(heat.first) << " x " << html_escape(heat.second) << " (" << backend << ")</h2>\n";
      out << heat_map(spec, rows, backend, hx, hy);
    }
  }
  if (xa < 0 && (hx < 0 || hy < 0))
    out << "<p>No chart: a scaling chart needs a cores or workers axis, a heat map two axes with several values.</p>\n";
  out << "</body></html>\n";
}

}  // namespace twinsched
