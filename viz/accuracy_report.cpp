// The accuracy page: one horizontal bar per case, from 0 to its error, clipped at ±100% (the tip says the value).
#include "accuracy_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "html_report.hpp"
#include "svg_chart.hpp"

namespace twinsched::viz {
namespace {

double error_pct(const accuracy_bar& c) { return c.real_s > 0 ? 100 * (c.sim_s - c.real_s) / c.real_s : 0; }

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", v);
  return b;
}

std::string error_chart(const std::vector<accuracy_bar>& cases) {
  constexpr int label_w = 230, w = 760, row = 16, top = 24;
  constexpr double clip = 100;  // percent
  const double x0 = label_w + (w - label_w) / 2.0, half = (w - label_w) / 2.0 - 10;
  auto X = [&](double p) { return x0 + half * std::clamp(p, -clip, clip) / clip; };
  std::size_t n = 0;
  for (const auto& c : cases) n += !c.failed;
  const int h = top + int(n) * row + 10;
  std::ostringstream o;
  o << "<figure><figcaption>Makespan error per case, (sim - real) / real: left, the simulator predicts too short a "
       "run; shaded, within 10% and 25%; bars stop at ±100%</figcaption>"
    << "<svg class=\"chart\" width=\"" << w << "\" height=\"" << h << "\">";
  o << "<rect x=\"" << X(-25) << "\" y=\"" << top << "\" width=\"" << X(25) - X(-25) << "\" height=\"" << h - top - 10
    << "\" fill=\"#f3f3e0\"/><rect x=\"" << X(-10) << "\" y=\"" << top << "\" width=\"" << X(10) - X(-10)
    << "\" height=\"" << h - top - 10 << "\" fill=\"#e3f0da\"/>";
  for (double p : {-100.0, -25.0, 0.0, 25.0, 100.0})
    o << "<text class=\"lbl\" x=\"" << X(p) - 12 << "\" y=\"" << top - 8 << "\">" << int(p) << "%</text>";
  int y = top;
  for (const auto& c : cases) {
    if (c.failed) continue;
    const double e = error_pct(c);
    const double a = X(std::min(0.0, e)), b = X(std::max(0.0, e));
    o << "<text class=\"lbl\" x=\"4\" y=\"" << y + 12 << "\">" << html_escape(c.name) << "</text>"
      << "<rect x=\"" << a << "\" y=\"" << y + 3 << "\" width=\"" << std::max(1.0, b - a) << "\" height=\"" << row - 5
      << "\" fill=\"" << (std::abs(e) <= 10 ? "#54a24b" : std::abs(e) <= 25 ? "#f58518" : "#e45756") << "\" data-tip=\""
      << html_escape(c.name) << ": real " << fmt_ns(c.real_s * 1e9) << ", sim " << fmt_ns(c.sim_s * 1e9) << ", "
      << pct(e) << "\"/>";
    y += row;
  }
  o << "<line x1=\"" << x0 << "\" x2=\"" << x0 << "\" y1=\"" << top << "\" y2=\"" << h - 10
    << "\" stroke=\"#333\"/></svg></figure>\n";
  return o.str();
}

}  // namespace

void write_accuracy_report(std::ostream& out, const std::string& title, const std::string& note,
                           const std::vector<accuracy_bar>& cases) {
  std::ostringstream body;
  body << "<h1>" << html_escape(title) << "</h1><p class=\"sub\">" << html_escape(note) << "</p>";
  body << error_chart(cases);
  body << "<table><tr><th>case</th><th>real</th><th>simulated</th><th>error</th></tr>";
  for (const auto& c : cases)
    body << "<tr><td>" << html_escape(c.name) << "</td><td>" << fmt_ns(c.real_s * 1e9) << "</td><td>"
         << (c.failed ? std::string("failed") : fmt_ns(c.sim_s * 1e9)) << "</td><td>"
         << (c.failed ? std::string("-") : pct(error_pct(c))) << "</td></tr>";
  body << "</table>";
  write_page(out, title, body.str());
}

}  // namespace twinsched::viz
