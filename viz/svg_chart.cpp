// Inline SVG for the report: plots in a 0..1000 x unit space that the page's script zooms by viewBox.
#include "svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace twinsched::viz {

std::string html_escape(const std::string& s) {
  std::string r;
  for (char c : s) {
    switch (c) {
      case '&': r += "&amp;"; break;
      case '<': r += "&lt;"; break;
      case '>': r += "&gt;"; break;
      case '"': r += "&quot;"; break;
      default: r += c;
    }
  }
  return r;
}

namespace {

std::string num(double v, int decimals = 1) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  std::string s = b;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

constexpr int width = 1100, left = 64, right = 14, top = 8;
constexpr int plot_w = width - left - right;

std::string legend(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string s = "<div class=\"legend\">";
  for (const auto& [name, color] : items)
    s += "<span><i style=\"background:" + color + "\"></i>" + html_escape(name) + "</span>";
  return s + "</div>";
}

/// The outer svg of a zoomable chart and its inner plot, left open for the plot's content.
std::string open_zoom(const std::string& attrs, int plot_h, std::uint64_t range_ns, const std::string& link) {
  const int h = top + plot_h + 22;
  return "<svg class=\"chart zoom\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(h) +
         "\" data-range=\"" + std::to_string(std::max<std::uint64_t>(range_ns, 1)) + "\" data-link=\"" + link + "\" " +
         attrs + "><g class=\"axis xaxis\"></g><svg class=\"plot\" x=\"" + std::to_string(left) + "\" y=\"" +
         std::to_string(top) + "\" width=\"" + std::to_string(plot_w) + "\" height=\"" + std::to_string(plot_h) +
         "\" viewBox=\"0 0 1000 " + std::to_string(plot_h) + "\" preserveAspectRatio=\"none\">";
}

}  // namespace

std::string fmt_ns(double ns) {
  const double a = std::fabs(ns);
  if (a >= 1e9) return num(ns / 1e9, 3) + " s";
  if (a >= 1e6) return num(ns / 1e6, 3) + " ms";
  if (a >= 1e3) return num(ns / 1e3, 2) + " µs";
  return num(ns, 0) + " ns";
}

std::string fmt_count(double v) {
  const double a = std::fabs(v);
  if (a >= 1e6) return num(v / 1e6, 2) + " M";
  if (a >= 1e4) return num(v / 1e3, 1) + " k";
  return num(v, 2);
}

std::string time_chart(const std::string& caption, const std::vector<line_series>& lines, std::uint64_t range_ns,
                       const std::string& link) {
  constexpr int plot_h = 150;
  double most = 0;
  for (const auto& l : lines)
    for (float v : *l.values) most = std::max(most, double(v));
  if (most <= 0) most = 1;
  std::ostringstream o;
  std::vector<std::pair<std::string, std::string>> items;
  for (const auto& l : lines) items.emplace_back(l.name, l.color);
  o << "<figure><figcaption>" << html_escape(caption) << "</figcaption>" << legend(items);
  o << open_zoom("", plot_h, range_ns, link);
  for (const auto& l : lines) {  // a step line: each bin's value held across the bin
    o << "<polyline fill=\"none\" stroke=\"" << l.color
      << "\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\" points=\"";
    const double dx = 1000.0 * double(l.bin_ns) / double(std::max<std::uint64_t>(range_ns, 1));
    for (std::size_t k = 0; k < l.values->size(); ++k) {
      const double y = plot_h - 2 - (plot_h - 4) * double((*l.values)[k]) / most;
      o << num(double(k) * dx, 2) << ',' << num(y) << ' ' << num(double(k + 1) * dx, 2) << ',' << num(y) << ' ';
    }
    o << "\"><title>" << html_escape(l.name) << "</title></polyline>";
  }
  o << "</svg>";
  o << "<text class=\"lbl\" x=\"4\" y=\"" << top + 10 << "\">" << fmt_count(most) << "</text>";
  o << "<text class=\"lbl\" x=\"4\" y=\"" << top + plot_h << "\">0</text>";
  o << "<script type=\"application/json\" class=\"chart-data\">[";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& l = lines[i];
    o << (i ? "," : "") << "{\"name\":\"" << html_escape(l.name) << "\",\"unit\":\"" << l.unit
      << "\",\"bin\":" << l.bin_ns << ",\"v\":[";
    for (std::size_t k = 0; k < l.values->size(); ++k) o << (k ? "," : "") << num((*l.values)[k], 2);
    o << "]}";
  }
  o << "]</script></svg></figure>\n";
  return o.str();
}

std::string timeline_chart(const run_profile& p, const std::string& spells_id, const std::string& link) {
  constexpr int row_h = 18;
  const int plot_h = std::max<int>(row_h, int(p.workers.size()) * row_h);
  const std::uint64_t range = std::max<std::uint64_t>(1, p.end_ns);
  std::ostringstream o;
  o << "<figure><figcaption>Workers over time</figcaption>"
    << legend({{"running a turn", "#2e8b57"}, {"idle", "#f0b429"}, {"parked", "#9aa3b5"}, {"between (finding work)", "#fff"}})
    << "<p class=\"note\">Each row is a worker; the height of each colour is the share of that column. Wheel to zoom, "
       "drag to pan, double-click to reset; zoomed in far enough, single turns appear"
    << (p.spells_complete ? "" : " (up to " + fmt_ns(double(p.spells_until_ns)) + ": later spells are summarized only)")
    << ".</p>";
  std::string rows = "[";
  for (const auto& [lane, w] : p.workers) rows += (rows.size() > 1 ? "," : "") + std::to_string(lane);
  rows += "]";
  o << open_zoom("data-spells=\"" + spells_id + "\" data-rows=\"" + rows + "\" data-row-height=\"" +
                     std::to_string(row_h) + "\"",
                 plot_h, range, link);
  o << "<g class=\"bins\">";
  const double dx = 1000.0 * double(p.bin_ns) / double(range);
  const char* colors[] = {"#2e8b57", "#f0b429", "#9aa3b5"};
  int r = 0;
  for (const auto& [lane, w] : p.workers) {
    const double base = double((r + 1) * row_h) - 1, h = row_h - 2;
    std::vector<double> lower(p.bins, 0.0);
    for (int s = 0; s < 3; ++s) {  // stacked: running at the bottom, idle, then parked
      o << "<polygon fill=\"" << colors[s] << "\" points=\"";
      std::vector<double> upper(p.bins);
      for (std::size_t k = 0; k < p.bins; ++k) upper[k] = lower[k] + double(w[s][k]);
      for (std::size_t k = 0; k < p.bins; ++k)
        o << num(double(k) * dx, 2) << ',' << num(base - h * upper[k]) << ' ' << num(double(k + 1) * dx, 2) << ','
          << num(base - h * upper[k]) << ' ';
      for (std::size_t k = p.bins; k-- > 0;)
        o << num(double(k + 1) * dx, 2) << ',' << num(base - h * lower[k]) << ' ' << num(double(k) * dx, 2) << ','
          << num(base - h * lower[k]) << ' ';
      o << "\"/>";
      lower = upper;
    }
    ++r;
  }
  o << "</g><g class=\"detail\"></g></svg>";
  r = 0;
  for (const auto& [lane, w] : p.workers)
    o << "<text class=\"lbl\" x=\"4\" y=\"" << top + r++ * row_h + 13 << "\">worker " << lane << "</text>";
  o << "</svg></figure>\n";
  return o.str();
}

std::string spells_json(const run_profile& p, const std::string& id) {
  std::ostringstream o;
  o << "<script type=\"application/json\" id=\"" << id << "\">[";
  bool first = true;
  for (const auto& s : p.spells) {
    o << (first ? "" : ",") << '[' << s.lane << ',' << unsigned(s.state) << ',' << s.begin_ns << ',' << s.end_ns << ','
      << s.actor << ']';
    first = false;
  }
  o << "]</script>\n";
  return o.str();
}

std::string delay_chart(const delay_histogram& h, const std::string& caption) {
  constexpr int plot_h = 120, w = 520, l = 50, b = 30;
  std::ostringstream o;
  o << "<figure><figcaption>" << html_escape(caption) << "</figcaption>";
  o << "<svg class=\"chart\" width=\"" << w << "\" height=\"" << plot_h + top + b << "\">";
  const std::size_t n = std::max<std::size_t>(h.bins.size(), 1);
  std::uint64_t most = 1;
  for (auto c : h.bins) most = std::max(most, c);
  const double bw = double(w - l - 10) / double(n);
  for (std::size_t k = 0; k < h.bins.size(); ++k) {
    if (!h.bins[k]) continue;
    const double bh = double(plot_h) * double(h.bins[k]) / double(most);
    o << "<rect x=\"" << num(l + double(k) * bw, 2) << "\" y=\"" << num(top + plot_h - bh) << "\" width=\""
      << num(std::max(bw - 0.5, 0.5), 2) << "\" height=\"" << num(std::max(bh, 0.5)) << "\" fill=\"#4c78a8\" data-tip=\""
      << fmt_ns(delay_histogram::bin_low(unsigned(k))) << " … " << fmt_ns(delay_histogram::bin_low(unsigned(k + 1)))
      << ": " << h.bins[k] << " messages\"/>";
  }
  auto x_of = [&](double ns) { return l + double(delay_histogram::bin_of(std::uint64_t(ns))) * bw + bw / 2; };
  const std::pair<const char*, double> marks[] = {
      {"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}};
  int i = 0;
  for (auto [name, q] : marks) {
    const double v = double(h.exact.quantile(q)), x = x_of(v);
    o << "<line x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << top << "\" y2=\"" << top + plot_h
      << "\" stroke=\"#b3261e\" stroke-dasharray=\"3 2\"/><text class=\"lbl\" x=\"" << num(x > w * 0.6 ? x - 3 : x + 3)
      << "\" text-anchor=\"" << (x > w * 0.6 ? "end" : "start") << "\" y=\"" << top + 10 + 12 * i++ << "\">" << name << " "
      << fmt_ns(v) << "</text>";
  }
  for (std::size_t k = 0; k < n; k += std::max<std::size_t>(1, n / 6))
    o << "<text class=\"lbl\" x=\"" << num(l + double(k) * bw) << "\" y=\"" << top + plot_h + 16 << "\">"
      << fmt_ns(delay_histogram::bin_low(unsigned(k))) << "</text>";
  o << "<text class=\"lbl\" x=\"2\" y=\"" << top + 10 << "\">" << most << "</text></svg>";
  o << "<p class=\"note\">" << h.exact.count() << " messages; mean " << fmt_ns(h.exact.mean()) << ", max "
    << fmt_ns(double(h.exact.max())) << "; log scale, 4 columns per doubling.</p></figure>\n";
  return o.str();
}

std::string bound_chart(const std::vector<const run_profile*>& runs, const std::vector<std::string>& names) {
  constexpr int plot_h = 200, w = 560, l = 50, b = 30;
  unsigned most_cores = 16;
  for (const auto* p : runs) most_cores = std::max(most_cores, 4 * std::max(1u, p->cores));
  const double xmax = std::log2(double(most_cores));
  double ymax = 1;
  for (const auto* p : runs)
    if (p->causality.available) ymax = std::max(ymax, std::min(double(most_cores), p->causality.parallelism()));
  ymax *= 1.1;
  auto X = [&](double cores) { return l + (w - l - 12) * std::log2(cores) / xmax; };
  auto Y = [&](double s) { return top + plot_h - plot_h * s / ymax; };
  std::ostringstream o;
  const char* colors[] = {"#4c78a8", "#e45756"};
  std::vector<std::pair<std::string, std::string>> items;
  for (std::size_t i = 0; i < runs.size(); ++i) items.emplace_back(names[i] + ": bound", colors[i]);
  items.emplace_back("linear", "#bbb");
  o << "<figure><figcaption>Speed-up the message graph allows, on N cores</figcaption>" << legend(items);
  o << "<svg class=\"chart\" width=\"" << w << "\" height=\"" << plot_h + top + b << "\">";
  o << "<polyline fill=\"none\" stroke=\"#bbb\" stroke-dasharray=\"4 3\" points=\"";
  for (unsigned c = 1; c <= most_cores; c *= 2) o << num(X(c)) << ',' << num(Y(std::min<double>(c, ymax))) << ' ';
  o << "\"/>";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const causality_result& cr = runs[i]->causality;
    if (!cr.available) continue;
    o << "<polyline fill=\"none\" stroke=\"" << colors[i] << "\" stroke-width=\"2\" points=\"";
    for (unsigned c = 1; c <= most_cores; c *= 2)
      o << num(X(c)) << ',' << num(Y(double(cr.work_ns) / double(cr.bound_ns(c)))) << ' ';
    o << "\"/>";
    const unsigned n = std::max(1u, runs[i]->cores);
    const double got = runs[i]->makespan_ns ? double(cr.work_ns) / double(runs[i]->makespan_ns) : 0;
    o << "<circle cx=\"" << num(X(n)) << "\" cy=\"" << num(Y(got)) << "\" r=\"5\" fill=\"" << colors[i]
      << "\" data-tip=\"" << html_escape(names[i]) << ": work / makespan = " << num(got, 2) << " on " << n
      << " cores; the bound allows " << num(double(cr.work_ns) / double(cr.bound_ns(n)), 2) << "\"/>";
  }
  for (unsigned c = 1; c <= most_cores; c *= 2)
    o << "<text class=\"lbl\" x=\"" << num(X(c) - 4) << "\" y=\"" << top + plot_h + 16 << "\">" << c << "</text>";
  o << "<text class=\"lbl\" x=\"2\" y=\"" << top + 10 << "\">" << num(ymax, 1) << "×</text>";
  o << "<text class=\"lbl\" x=\"" << w / 2 << "\" y=\"" << top + plot_h + 28 << "\">cores</text></svg>";
  o << "<p class=\"note\">Dots: each traced run's work ÷ makespan on its own core count.</p></figure>\n";
  return o.str();
}

}  // namespace twinsched::viz
