// Category charts: fixed-size SVG in pixel units (no script), labels escaped through html_escape.
#include "category_chart.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <sstream>

#include "svg_chart.hpp"

namespace twinsched::viz {
namespace {

std::string formatted(double x, const char* fmt = "%.4g") {
  char b[48];
  std::snprintf(b, sizeof b, fmt, x);
  return b;
}

const char* const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

}  // namespace

double mean_cell::mean() const { return n ? sum / double(n) : std::numeric_limits<double>::quiet_NaN(); }

std::string category_line_chart(const std::vector<std::string>& xs, const std::string& x_title,
                                const std::vector<category_line>& lines, const value_axis& y) {
  double ymax = 0;
  for (const auto& line : lines)
    for (const auto& [x, a] : line.points) ymax = std::max(ymax, a.mean());
  if (ymax <= 0) ymax = 1;
  const double W = 640, H = 320, L = 70, R = 150, T = 20, B = 40;
  auto px = [&](std::size_t i) {
    return L + (xs.size() > 1 ? double(i) * (W - L - R) / double(xs.size() - 1) : (W - L - R) / 2);
  };
  auto py = [&](double v) { return H - B - v / ymax * (H - T - B); };
  std::ostringstream out;
  out << "<svg class=\"chart\" width=\"" << W << "\" height=\"" << H << "\" viewBox=\"0 0 " << W << " " << H
      << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  out << "<line x1=\"" << L << "\" y1=\"" << H - B << "\" x2=\"" << W - R << "\" y2=\"" << H - B << "\" stroke=\"#444\"/>"
      << "<line x1=\"" << L << "\" y1=\"" << T << "\" x2=\"" << L << "\" y2=\"" << H - B << "\" stroke=\"#444\"/>\n";
  for (int k = 0; k <= 4; ++k) {
    const double v = ymax * k / 4;
    out << "<text x=\"" << L - 6 << "\" y=\"" << py(v) + 4 << "\" text-anchor=\"end\">" << formatted(v, "%.3g") << "</text>"
        << "<line x1=\"" << L << "\" y1=\"" << py(v) << "\" x2=\"" << W - R << "\" y2=\"" << py(v)
        << "\" stroke=\"#eee\"/>\n";
  }
  for (std::size_t i = 0; i < xs.size(); ++i)
    out << "<text x=\"" << px(i) << "\" y=\"" << H - B + 16 << "\" text-anchor=\"middle\">" << html_escape(xs[i])
        << "</text>\n";
  out << "<text x=\"" << (L + W - R) / 2 << "\" y=\"" << H - 6 << "\" text-anchor=\"middle\">" << html_escape(x_title)
      << "</text>\n";
  out << "<text x=\"12\" y=\"" << (T + H - B) / 2 << "\" text-anchor=\"middle\" transform=\"rotate(-90 12 "
      << (T + H - B) / 2 << ")\">" << html_escape(y.title) << "</text>\n";
  std::size_t c = 0;
  for (const auto& line : lines) {
    const char* color = palette[c % 8];
    std::string path;
    for (const auto& [x, a] : line.points)
      path += (path.empty() ? "M" : " L") + formatted(px(x), "%.1f") + "," + formatted(py(a.mean()), "%.1f");
    out << "<path d=\"" << path << "\" fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\"/>\n";
    for (const auto& [x, a] : line.points)
      out << "<circle cx=\"" << formatted(px(x), "%.1f") << "\" cy=\"" << formatted(py(a.mean()), "%.1f") << "\" r=\"3\" fill=\""
          << color << "\"><title>" << html_escape(line.name) << ", " << html_escape(x < xs.size() ? xs[x] : "?")
          << ": " << formatted(a.mean(), "%.4g") << " " << html_escape(y.unit) << " (mean of " << a.n
          << ")</title></circle>\n";
    out << "<text x=\"" << W - R + 10 << "\" y=\"" << T + 16 * double(c) + 10 << "\" fill=\"" << color << "\">"
        << html_escape(line.name) << "</text>\n";
    ++c;
  }
  out << "</svg>\n";
  return out.str();
}

std::string heat_map_chart(const std::vector<std::string>& xs, const std::vector<std::string>& ys,
                           const std::string& x_title, const std::string& y_title,
                           const std::vector<std::vector<mean_cell>>& grid, const value_axis& v,
                           const std::string& empty) {
  double lo = std::numeric_limits<double>::infinity(), hi = 0;
  for (const auto& row : grid)
    for (const auto& a : row)
      if (a.n) lo = std::min(lo, a.mean()), hi = std::max(hi, a.mean());
  const double cw = 90, ch = 28, L = 120, T = 10;
  const double W = L + cw * double(xs.size()) + 10, H = T + ch * double(ys.size()) + 40;
  std::ostringstream out;
  out << "<svg class=\"chart\" width=\"" << W << "\" height=\"" << H << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t y = 0; y < ys.size(); ++y) {
    out << "<text x=\"" << L - 6 << "\" y=\"" << T + ch * double(y) + ch / 2 + 4 << "\" text-anchor=\"end\">"
        << html_escape(ys[y]) << "</text>\n";
    for (std::size_t x = 0; x < xs.size(); ++x) {
      const mean_cell a = y < grid.size() && x < grid[y].size() ? grid[y][x] : mean_cell{};
      const double f = a.n && hi > lo ? (a.mean() - lo) / (hi - lo) : (a.n ? 1 : 0);
      char fill[16];
      std::snprintf(fill, sizeof fill, "#%02x%02x%02x", int(255 - 200 * f), int(255 - 120 * f), 255);
      out << "<rect x=\"" << L + cw * double(x) << "\" y=\"" << T + ch * double(y) << "\" width=\"" << cw - 2
          << "\" height=\"" << ch - 2 << "\" fill=\"" << (a.n ? fill : "#ddd") << "\"><title>" << html_escape(ys[y])
          << ", " << html_escape(xs[x]) << ": "
          << html_escape(a.n ? formatted(a.mean()) + " " + v.unit : empty) << "</title></rect>"
          << "<text x=\"" << L + cw * double(x) + cw / 2 << "\" y=\"" << T + ch * double(y) + ch / 2 + 4
          << "\" text-anchor=\"middle\">" << (a.n ? formatted(a.mean(), "%.3g") : "-") << "</text>\n";
    }
  }
  for (std::size_t x = 0; x < xs.size(); ++x)
    out << "<text x=\"" << L + cw * double(x) + cw / 2 << "\" y=\"" << T + ch * double(ys.size()) + 14
        << "\" text-anchor=\"middle\">" << html_escape(xs[x]) << "</text>\n";
  out << "<text x=\"" << L + cw * double(xs.size()) / 2 << "\" y=\"" << H - 6 << "\" text-anchor=\"middle\">"
      << html_escape(x_title) << " (rows: " << html_escape(y_title) << ")</text>\n";
  out << "</svg>\n";
  return out.str();
}

}  // namespace twinsched::viz
