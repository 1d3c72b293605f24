// The latency-CPU frontier chart: log-log axes with decade ticks, dots colored by group, the front as a step line.
#include "frontier_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "svg_chart.hpp"

namespace twinsched::viz {
namespace {

constexpr double chart_w = 760, chart_h = 500, margin_l = 80, margin_r = 190, margin_t = 56, margin_b = 56;
constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/// A log axis over [lo, hi], widened to whole halves of a decade.
struct log_axis {
  double lo, hi;
  log_axis(double a, double b) {
    a = std::max(a / 1.15, 1.0);  // a margin, so no dot sits on the frame
    b = std::max(b * 1.15, a * 1.5);
    lo = std::pow(10, std::floor(std::log10(a) * 2) / 2);
    hi = std::pow(10, std::ceil(std::log10(b) * 2) / 2);
  }
  double at(double v, double from, double to) const {
    const double t = (std::log10(std::max(v, lo)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return from + t * (to - from);
  }
};

std::string n1(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

}  // namespace

std::string frontier_svg(const std::vector<frontier_dot>& dots, const std::string& title, const std::string& note) {
  const double w = margin_l + chart_w + margin_r, h = margin_t + chart_h + margin_b;
  double xlo = 1e300, xhi = 0, ylo = 1e300, yhi = 0;
  for (const auto& d : dots) {
    xlo = std::min(xlo, d.cpu_ns), xhi = std::max(xhi, d.cpu_ns);
    ylo = std::min(ylo, d.p99_ns), yhi = std::max(yhi, d.p99_ns);
  }
  if (dots.empty()) xlo = ylo = 1, xhi = yhi = 10;
  const log_axis x(xlo, xhi), y(ylo, yhi);
  auto px = [&](double v) { return x.at(v, margin_l, margin_l + chart_w); };
  auto py = [&](double v) { return y.at(v, margin_t + chart_h, margin_t); };
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + n1(w) + "\" height=\"" + n1(h) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + n1(margin_l) + "\" y=\"22\" font-size=\"16\" font-weight=\"bold\">" + html_escape(title) + "</text>\n";
  s += "<text x=\"" + n1(margin_l) + "\" y=\"40\" fill=\"#555\">" + html_escape(note) + "</text>\n";
  // grid and ticks: 1, 2 and 5 of each decade
  auto ticks = [](const log_axis& a) {
    std::vector<double> t;
    for (double d = std::pow(10, std::floor(std::log10(a.lo))); d <= a.hi; d *= 10)
      for (double m : {1.0, 2.0, 5.0})
        if (d * m >= a.lo * 0.999 && d * m <= a.hi * 1.001) t.push_back(d * m);
    return t;
  };
  for (double v : ticks(x))
    s += "<line x1=\"" + n1(px(v)) + "\" x2=\"" + n1(px(v)) + "\" y1=\"" + n1(margin_t) + "\" y2=\"" +
         n1(margin_t + chart_h) + "\" stroke=\"#eee\"/><text x=\"" + n1(px(v)) + "\" y=\"" + n1(margin_t + chart_h + 16) +
         "\" text-anchor=\"middle\">" + html_escape(fmt_ns(v)) + "</text>\n";
  for (double v : ticks(y))
    s += "<line x1=\"" + n1(margin_l) + "\" x2=\"" + n1(margin_l + chart_w) + "\" y1=\"" + n1(py(v)) + "\" y2=\"" +
         n1(py(v)) + "\" stroke=\"#eee\"/><text x=\"" + n1(margin_l - 6) + "\" y=\"" + n1(py(v) + 4) +
         "\" text-anchor=\"end\">" + html_escape(fmt_ns(v)) + "</text>\n";
  s += "<rect x=\"" + n1(margin_l) + "\" y=\"" + n1(margin_t) + "\" width=\"" + n1(chart_w) + "\" height=\"" + n1(chart_h) +
       "\" fill=\"none\" stroke=\"#999\"/>\n";
  s += "<text x=\"" + n1(margin_l + chart_w / 2) + "\" y=\"" + n1(h - 14) +
       "\" text-anchor=\"middle\">CPU per request (the workers' CPU time over the requests handled; log)</text>\n";
  s += "<text transform=\"translate(18 " + n1(margin_t + chart_h / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">p99 latency, arrival to completion (log)</text>\n";
  // the front: sorted by CPU, a step line (each dot on it dominates every point up and right of it)
  std::vector<const frontier_dot*> front;
  for (const auto& d : dots)
    if (d.front) front.push_back(&d);
  std::sort(front.begin(), front.end(), [](auto* a, auto* b) { return a->cpu_ns < b->cpu_ns; });
  if (front.size() > 1) {
    std::string path = "M" + n1(px(front[0]->cpu_ns)) + " " + n1(py(front[0]->p99_ns));
    for (std::size_t k = 1; k < front.size(); ++k)
      path += " H" + n1(px(front[k]->cpu_ns)) + " V" + n1(py(front[k]->p99_ns));
    s += "<path d=\"" + path + "\" fill=\"none\" stroke=\"#333\" stroke-dasharray=\"5 4\"/>\n";
  }
  std::map<std::string, std::string> colors;  // group -> color, in order of first appearance
  std::vector<std::string> order;
  for (const auto& d : dots)
    if (colors.emplace(d.group, palette[colors.size() % std::size(palette)]).second) order.push_back(d.group);
  for (const auto& d : dots) {
    const std::string c = colors[d.group];
    if (d.front)
      s += "<circle cx=\"" + n1(px(d.cpu_ns)) + "\" cy=\"" + n1(py(d.p99_ns)) + "\" r=\"9\" fill=\"none\" stroke=\"#333\"/>";
    s += "<circle cx=\"" + n1(px(d.cpu_ns)) + "\" cy=\"" + n1(py(d.p99_ns)) + "\" r=\"5\" fill=\"" + c + "\"><title>" +
         html_escape(d.group + ", " + d.label + ": p99 " + fmt_ns(d.p99_ns) + ", CPU " + fmt_ns(d.cpu_ns) + " a request") +
         "</title></circle><text x=\"" + n1(px(d.cpu_ns) + 8) + "\" y=\"" + n1(py(d.p99_ns) - 6) +
         "\" font-size=\"10\" fill=\"#444\">" + html_escape(d.label) + "</text>\n";
  }
  double ly = margin_t + 10;
  for (const auto& g : order) {
    s += "<circle cx=\"" + n1(margin_l + chart_w + 22) + "\" cy=\"" + n1(ly) + "\" r=\"5\" fill=\"" + colors[g] +
         "\"/><text x=\"" + n1(margin_l + chart_w + 32) + "\" y=\"" + n1(ly + 4) + "\">" + html_escape(g) + "</text>\n";
    ly += 18;
  }
  s += "<circle cx=\"" + n1(margin_l + chart_w + 22) + "\" cy=\"" + n1(ly + 8) +
       "\" r=\"9\" fill=\"none\" stroke=\"#333\"/><text x=\"" + n1(margin_l + chart_w + 36) + "\" y=\"" + n1(ly + 12) +
       "\">on the Pareto front</text>\n";
  return s + "</svg>\n";
}

}  // namespace twinsched::viz
