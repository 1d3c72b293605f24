// The sweep report: inline SVG line charts (scaling per policy) and a heat map, averaged over the other axes.
#include "sweep/sweep_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace twinsched {
namespace {

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

std::string num(double x, const char* fmt = "%.4g") {
  char b[48];
  std::snprintf(b, sizeof b, fmt, x);
  return b;
}

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

struct mean_acc {
  double sum = 0;
  std::size_t n = 0;
  double mean() const { return n ? sum / double(n) : std::numeric_limits<double>::quiet_NaN(); }
};

const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

/// One SVG line chart: x = `x_axis`'s values (evenly spaced, in order), a line per series.
void line_chart(std::ostream& out, const sweep_spec& spec, const std::map<std::string, sweep_row>& rows,
                const std::string& backend, int xa, int series_axis) {
  std::map<std::string, std::map<std::size_t, mean_acc>> series;  // series -> x position -> mean
  for (const auto& [key, r] : rows) {
    if (r.backend != backend || r.verdict != "OK") continue;
    const std::string name = series_axis >= 0 ? r.values[std::size_t(series_axis)] : "all cells";
    auto& acc = series[name][order_of(spec, xa, r.values[std::size_t(xa)])];
    acc.sum += r.msgs_per_s;
    ++acc.n;
  }
  const auto& xs = spec.axes[std::size_t(xa)].values;
  double ymax = 0;
  for (auto& [n, pts] : series)
    for (auto& [x, a] : pts) ymax = std::max(ymax, a.mean());
  if (ymax <= 0) ymax = 1;
  const double W = 640, H = 320, L = 70, R = 150, T = 20, B = 40;
  auto px = [&](std::size_t i) { return L + (xs.size() > 1 ? double(i) * (W - L - R) / double(xs.size() - 1) : (W - L - R) / 2); };
  auto py = [&](double y) { return H - B - y / ymax * (H - T - B); };
  out << "<svg class=\"chart\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
      << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<line x1=\"" << L << "\" y1=\"" << H - B << "\" x2=\"" << W - R << "\" y2=\"" << H - B << "\" stroke=\"#444\"/>"
      << "<line x1=\"" << L << "\" y1=\"" << T << "\" x2=\"" << L << "\" y2=\"" << H - B << "\" stroke=\"#444\"/>\n";
  for (int k = 0; k <= 4; ++k) {
    const double y = ymax * k / 4;
    out << "<text x=\"" << L - 6 << "\" y=\"" << py(y) + 4 << "\" text-anchor=\"end\">" << num(y, "%.3g") << "</text>"
        << "<line x1=\"" << L << "\" y1=\"" << py(y) << "\" x2=\"" << W - R << "\" y2=\"" << py(y)
        << "\" stroke=\"#eee\"/>\n";
  }
  for (std::size_t i = 0; i < xs.size(); ++i)
    out << "<text x=\"" << px(i) << "\" y=\"" << H - B + 16 << "\" text-anchor=\"middle\">" << esc(xs[i]) << "</text>\n";
  out << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 6 << "\" text-anchor=\"middle\">"
      << esc(spec.axes[std::size_t(xa)].name) << "</text>\n";
  out << "<text x=\"12\" y=\"" << (T + H - B) / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 12 "
      << (T + H - B) / 2 << ")\">msgs/s (mean)</text>\n";
  std::size_t c = 0;
  for (auto& [name, pts] : series) {
    const char* color = palette[c % 8];
    std::string path;
    for (auto& [x, a] : pts) path += (path.empty() ? "M" : " L") + num(px(x), "%.1f") + "," + num(py(a.mean()), "%.1f");
    out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n";
    for (auto& [x, a] : pts)
      out << "<circle cx=\"" << num(px(x), "%.1f") << "\" cy=\"" << num(py(a.mean()), "%.1f") << "\" r=\"3\" fill=\""
          << color << "\"><title>" << esc(name) << ", " << esc(xs[x]) << ": " << num(a.mean(), "%.4g")
          << " msgs/s (mean of " << a.n << ")</title></circle>\n";
    out << "<text x=\"" << W - R + 10 << "\" y=\"" << T + 16 * double(c) + 10 << "\" fill=\"" << color << "\">"
        << esc(name) << "</text>\n";
    ++c;
  }
  out << "</svg>\n";
}

void heat_map(std::ostream& out, const sweep_spec& spec, const std::map<std::string, sweep_row>& rows,
              const std::string& backend, int xa, int ya) {
  const auto &xs = spec.axes[std::size_t(xa)].values, &ys = spec.axes[std::size_t(ya)].values;
  std::vector<std::vector<mean_acc>> grid(ys.size(), std::vector<mean_acc>(xs.size()));
  for (const auto& [key, r] : rows) {
    if (r.backend != backend || r.verdict != "OK") continue;
    auto& a = grid[order_of(spec, ya, r.values[std::size_t(ya)])][order_of(spec, xa, r.values[std::size_t(xa)])];
    a.sum += r.msgs_per_s;
    ++a.n;
  }
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (auto& row : grid)
    for (auto& a : row)
      if (a.n) lo = std::min(lo, a.mean()), hi = std::max(hi, a.mean());
  const double cw = 90, ch = 28, L = 120, T = 10;
  const double W = L + cw * double(xs.size()) + 10, H = T + ch * double(ys.size()) + 40;
  out << "<svg class=\"chart\" width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t y = 0; y < ys.size(); ++y) {
    out << "<text x=\"" << L - 6 << "\" y=\"" << T + ch * double(y) + ch / 2 + 4 << "\" text-anchor=\"end\">"
        << esc(ys[y]) << "</text>\n";
    for (std::size_t x = 0; x < xs.size(); ++x) {
      const mean_acc& a = grid[y][x];
      const double f = a.n && hi > lo ? (a.mean() - lo) / (hi - lo) : (a.n ? 1 : 0);
      char fill[16];
      std::snprintf(fill, sizeof fill, "#%02x%02x%02x", int(255 - 200 * f), int(255 - 120 * f), 255);
      out << "<rect x=\"" << L + cw * double(x) << "\" y=\"" << T + ch * double(y) << "\" width=\"" << cw - 2
          << "\" height=\"" << ch - 2 << "\" fill=\"" << (a.n ? fill : "#ddd") << "\"><title>" << esc(ys[y]) << ", "
          << esc(xs[x]) << ": " << (a.n ? num(a.mean()) + " msgs/s" : std::string("no passing cell")) << "</title></rect>"
          << "<text x=\"" << L + cw * double(x) + cw / 2 << "\" y=\"" << T + ch * double(y) + ch / 2 + 4
          << "\" text-anchor=\"middle\">" << (a.n ? num(a.mean(), "%.3g") : "-") << "</text>\n";
    }
  }
  for (std::size_t x = 0; x < xs.size(); ++x)
    out << "<text x=\"" << L + cw * double(x) + cw / 2 << "\" y=\"" << T + ch * double(ys.size()) + 14
        << "\" text-anchor=\"middle\">" << esc(xs[x]) << "</text>\n";
  out << "<text x=\"" << L + cw * double(xs.size()) / 2 << "\" y=\"" << H - 6 << "\" text-anchor=\"middle\">"
      << esc(spec.axes[std::size_t(xa)].name) << " (rows: " << esc(spec.axes[std::size_t(ya)].name) << ")</text>\n";
  out << "</svg>\n";
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
  out << "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>sweep " << esc(spec.name) << "</title>\n"
      << "<style>body{font-family:sans-serif;margin:2em;max-width:70em}svg.chart{margin:1em 0;font-size:12px}"
         "h2{margin-top:1.5em}td,th{padding:2px 8px}</style></head><body>\n";
  out << "<h1>sweep " << esc(spec.name) << "</h1>\n<p>" << esc(spec.source) << ": scenario " << esc(spec.base.name)
      << " (" << esc(spec.base.workload) << "); " << rows.size() << " cells: " << ok << " OK, " << fail << " FAIL, " << err
      << " ERROR. Values are messages per second (simulated seconds for sim), the mean over the passing cells of every "
         "axis not shown.</p>\n<table><tr><th>axis</th><th>values</th></tr>\n";
  for (const auto& a : spec.axes) {
    std::string vals;
    for (const auto& v : a.values) vals += (vals.empty() ? "" : ", ") + v;
    out << "<tr><td>" << esc(a.name) << "</td><td>" << esc(vals) << "</td></tr>\n";
  }
  out << "</table>\n";
  const int policy = axis_index(spec, "policy");
  int xa = axis_index(spec, "cores");
  if (xa < 0 || spec.axes[std::size_t(xa)].values.size() < 2) xa = axis_index(spec, "workers");
  auto heat = o.heat_x.empty() ? default_heat_axes(spec) : std::make_pair(o.heat_x, o.heat_y);
  const int hx = axis_index(spec, heat.first), hy = axis_index(spec, heat.second);
  for (const auto& backend : spec.backends) {
    if (xa >= 0) {
      out << "<h2>Scaling per policy (" << backend << ")</h2>\n";
      line_chart(out, spec, rows, backend, xa, policy);
    }
    if (hx >= 0 && hy >= 0 && hx != hy) {
      out << "<h2>Heat map: " << esc(heat.first) << " x " << esc(heat.second) << " (" << backend << ")</h2>\n";
      heat_map(out, spec, rows, backend, hx, hy);
    }
  }
  if (xa < 0 && (hx < 0 || hy < 0))
    out << "<p>No chart: a scaling chart needs a cores or workers axis, a heat map two axes with several values.</p>\n";
  out << "</body></html>\n";
}

}  // namespace twinsched
