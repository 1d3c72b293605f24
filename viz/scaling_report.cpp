// The scaling page: per series, the mean and spread of each core count, drawn on a log2 core axis.
#include "scaling_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <ostream>
#include <sstream>

#include "html_report.hpp"
#include "svg_chart.hpp"

namespace twinsched::viz {
namespace {

struct cell {
  double mean = 0, lo = 0, hi = 0;
  std::size_t n = 0;
};

using table = std::map<std::string, std::map<unsigned, cell>>;

/// Per series and core count: `value`'s mean, least and most.
table summarize(const std::vector<scaling_point>& pts, double (*value)(const scaling_point&)) {
  table t;
  for (const auto& p : pts) {
    cell& c = t[p.series][p.cores];
    const double v = value(p);
    c.lo = c.n ? std::min(c.lo, v) : v;
    c.hi = c.n ? std::max(c.hi, v) : v;
    c.mean = (c.mean * double(c.n) + v) / double(c.n + 1);
    ++c.n;
  }
  return t;
}

std::string curve_chart(const std::string& caption, const table& t, const std::string& unit, bool linear_guide) {
  constexpr int w = 700, h = 260, l = 60, top = 10, b = 34;
  const char* colors[] = {"#4c78a8", "#e45756", "#54a24b", "#f58518", "#b279a2", "#72b7b2", "#1d2430"};
  unsigned lo = ~0u, hi = 1;
  double ymax = 0;
  for (const auto& [name, cells] : t)
    for (const auto& [cores, c] : cells) lo = std::min(lo, cores), hi = std::max(hi, cores), ymax = std::max(ymax, c.hi);
  if (linear_guide) ymax = std::max(ymax, double(hi) / double(lo));
  if (lo == ~0u) lo = 1;
  if (ymax <= 0) ymax = 1;
  ymax *= 1.08;
  const double span = std::max(1.0, std::log2(double(hi) / double(lo)));
  auto X = [&](double cores) { return l + (w - l - 20) * std::log2(cores / double(lo)) / span; };
  auto Y = [&](double v) { return top + h - h * v / ymax; };
  std::ostringstream o;
  o << "<figure><figcaption>" << html_escape(caption) << "</figcaption><div class=\"legend\">";
  std::size_t i = 0;
  for (const auto& [name, cells] : t) o << "<span><i style=\"background:" << colors[i++ % 7] << "\"></i>" << html_escape(name) << "</span>";
  o << "</div><svg class=\"chart\" width=\"" << w << "\" height=\"" << h + top + b << "\">";
  if (linear_guide)
    o << "<line x1=\"" << X(lo) << "\" y1=\"" << Y(1) << "\" x2=\"" << X(hi) << "\" y2=\"" << Y(double(hi) / double(lo))
      << "\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>";
  i = 0;
  for (const auto& [name, cells] : t) {
    const char* color = colors[i++ % 7];
    o << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"";
    for (const auto& [cores, c] : cells) o << X(cores) << ',' << Y(c.mean) << ' ';
    o << "\"/>";
    for (const auto& [cores, c] : cells) {
      if (c.n > 1)
        o << "<line x1=\"" << X(cores) << "\" x2=\"" << X(cores) << "\" y1=\"" << Y(c.lo) << "\" y2=\"" << Y(c.hi)
          << "\" stroke=\"" << color << "\"/>";
      o << "<circle cx=\"" << X(cores) << "\" cy=\"" << Y(c.mean) << "\" r=\"4\" fill=\"" << color << "\" data-tip=\""
        << html_escape(name) << ", " << cores << " cores: " << fmt_count(c.mean) << ' ' << unit
        << (c.n > 1 ? " (mean of " + std::to_string(c.n) + ", " + fmt_count(c.lo) + " … " + fmt_count(c.hi) + ")" : "")
        << "\"/>";
    }
  }
  for (unsigned c = lo; c <= hi; c *= 2)
    o << "<text class=\"lbl\" x=\"" << X(c) - 4 << "\" y=\"" << top + h + 16 << "\">" << c << "</text>";
  o << "<text class=\"lbl\" x=\"4\" y=\"" << top + 10 << "\">" << fmt_count(ymax) << ' ' << html_escape(unit)
    << "</text><text class=\"lbl\" x=\"" << w / 2 << "\" y=\"" << top + h + 30 << "\">cores</text></svg></figure>\n";
  return o.str();
}

}  // namespace

void write_scaling_report(std::ostream& out, const std::string& title, const std::string& note,
                          const std::vector<scaling_point>& points) {
  std::vector<scaling_point> speedup = points;
  const table rate = summarize(points, [](const scaling_point& p) { return p.msgs_per_s; });
  for (auto& p : speedup) {  // over the series' fewest cores (mean)
    const auto& cells = rate.at(p.series);
    const double base = cells.begin()->second.mean;
    p.msgs_per_s = base > 0 ? p.msgs_per_s / base : 0;
  }
  std::ostringstream body;
  body << "<h1>" << html_escape(title) << "</h1><p class=\"sub\">" << html_escape(note) << "</p>";
  body << curve_chart("Speed-up over the fewest cores (msgs/s ratio); dashed: linear", summarize(speedup, [](const scaling_point& p) { return p.msgs_per_s; }), "×", true);
  body << curve_chart("Throughput", rate, "msgs/s", false);
  body << "<table><tr><th>series</th><th>cores</th><th>makespan</th><th>msgs/s</th></tr>";
  for (const auto& p : points)
    body << "<tr><td>" << html_escape(p.series) << "</td><td>" << p.cores << "</td><td>" << fmt_ns(p.makespan_s * 1e9)
         << "</td><td>" << fmt_count(p.msgs_per_s) << "</td></tr>";
  body << "</table>";
  write_page(out, title, body.str());
}

}  // namespace twinsched::viz
