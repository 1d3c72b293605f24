// The report page: a run's panels, the comparison of two runs, the critical-path section.
#include "html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "report_assets.hpp"
#include "models/config.hpp"
#include "svg_chart.hpp"
#include "traces/trace_stats.hpp"

namespace twinsched::viz {
namespace {

std::string fixed(double v, int decimals) {
  char b[48];
  std::snprintf(b, sizeof b, "%.*f", decimals, v);
  return b;
}

std::string row(const std::string& k, const std::string& v) {
  return "<tr><td>" + html_escape(k) + "</td><td>" + v + "</td></tr>";
}

std::string run_facts(const report_run& r) {
  const run_profile& p = r.profile;
  const auto& h = p.header;
  std::string s = "<table class=\"kv\">";
  s += row("trace", html_escape(r.path) + " (" + level_name(h.level) + " level, " + fmt_count(double(p.events)) + " events)");
  s += row("scenario", html_escape(h.scenario) + ", seed " + std::to_string(h.seed));
  s += row("ran on", html_escape(h.backend) + ": " + html_escape(h.machine) +
                         (h.sim_cores ? ", " + std::to_string(h.sim_cores) + " modeled cores" : ""));
  s += row("scheduler", html_escape(h.policy) + ", idle " + html_escape(h.idle) + ", " + std::to_string(h.workers) + " workers");
  s += row("makespan", fmt_ns(double(p.makespan_ns)));
  s += row("messages", fmt_count(double(p.messages)) + (p.makespan_ns ? " (" + fmt_count(double(p.messages) * 1e9 / double(p.makespan_ns)) + " msgs/s)" : ""));
  if (p.latency_recorded) {
    s += row("CPU", fmt_ns(double(p.cpu_ns)) + " over " + std::to_string(h.workers) + " workers" +
                        (p.makespan_ns ? " (" + fixed(100.0 * double(p.cpu_ns) / (double(p.makespan_ns) * std::max(1u, unsigned(h.workers))), 1) + "% of their time)" : ""));
    auto quantiles = [](const latency_summary& l) {
      return "p50 " + fmt_ns(double(l.p50_ns)) + ", p99 " + fmt_ns(double(l.p99_ns)) + ", p99.9 " + fmt_ns(double(l.p999_ns)) +
             ", max " + fmt_ns(double(l.max_ns)) + " (" + fmt_count(double(l.count)) + ")";
    };
    if (p.request_latency.count) s += row("request latency", quantiles(p.request_latency));
    if (p.scheduling_delay.count) s += row("scheduling delay", quantiles(p.scheduling_delay) + ", sampled");
  }
  s += row("verdict", p.ok ? "<span class=\"ok\">OK</span>" : "<span class=\"bad\">FAILED</span>");
  return s + "</table>";
}

std::string critical_path(const run_profile& p) {
  const causality_result& c = p.causality;
  std::ostringstream o;
  o << "<h3>Critical path: what the message graph allows</h3>";
  if (!c.available) {
    o << "<p class=\"note\">Not available: " << html_escape(c.why) << ".</p>";
    return o.str();
  }
  const unsigned n = std::max(1u, p.cores);
  const std::uint64_t bound = c.bound_ns(n);
  o << "<p class=\"note\">A node is one message's handling; it waits for the handling that sent it (up to the send) "
       "and for its actor's previous handling. Work is the sum of handlings, span the longest chain; no schedule on N "
       "cores ends before max(work / N, span).</p><table class=\"kv\">";
  o << row("work", fmt_ns(double(c.work_ns)) + " in " + fmt_count(double(c.handlings)) + " handlings");
  o << row("span", fmt_ns(double(c.span_ns)) + (c.path_listed ? " (" + std::to_string(c.path.size()) + " handlings long)" : ""));
  o << row("parallelism", fixed(c.parallelism(), 2) + " (work ÷ span)");
  o << row("busiest actor", "actor " + std::to_string(c.busiest_actor) + ": " + fmt_ns(double(c.busiest_actor_ns)) + " of handling");
  o << row("bound on " + std::to_string(n) + " cores", fmt_ns(double(bound)) + (double(c.work_ns) / n >= double(c.span_ns) ? " (work ÷ cores: the cores limit)" : " (span: the graph limits)"));
  if (p.makespan_ns)
    o << row("traced makespan", fmt_ns(double(p.makespan_ns)) + ", " + fixed(double(p.makespan_ns) / double(std::max<std::uint64_t>(bound, 1)), 2) +
                                    "× the bound (the rest is the policy and the runtime's own cost)");
  o << "</table>";
  for (const auto& line : off_cpu_lines(p)) o << "<p class=\"note\">Off a CPU: " << html_escape(line) << ".</p>";
  o << "<table><tr><th>cores</th><th>bound</th><th>speed-up bound</th></tr>";
  for (unsigned k = 1; k <= std::max(64u, 4 * n); k *= 2)
    o << "<tr><td>" << k << "</td><td>" << fmt_ns(double(c.bound_ns(k))) << "</td><td>"
      << fixed(double(c.work_ns) / double(c.bound_ns(k)), 2) << "×</td></tr>";
  o << "</table>";
  if (c.path_listed && !c.path.empty()) {
    o << "<p class=\"note\">The path, actor by actor (consecutive handlings of one actor merged):</p><table><tr><th>actor</th><th>handlings</th><th>from</th><th>time handling</th></tr>";
    std::size_t shown = 0;
    for (std::size_t i = 0; i < c.path.size() && shown < 20;) {
      std::size_t j = i;
      std::uint64_t ns = 0;
      while (j < c.path.size() && c.path[j].actor == c.path[i].actor) ns += c.path[j++].ns;
      o << "<tr><td>actor " << c.path[i].actor << "</td><td>" << j - i << "</td><td>" << fmt_ns(double(c.path[i].begin_ns))
        << "</td><td>" << fmt_ns(double(ns)) << "</td></tr>";
      i = j;
      ++shown;
    }
    o << "</table>";
  }
  return o.str();
}

std::string graph_tables(const run_profile& p) {
  std::ostringstream o;
  const comm_summary& g = p.graph;
  o << "<h3>Communication graph</h3><p class=\"note\">" << g.actors << " vertices (the workload's start is actor 0), "
    << g.edges << " edges, " << fmt_count(double(g.messages)) << " messages; " << g.components
    << " strongly connected components, " << g.cyclic_components << " of them with messages going round (largest: "
    << g.largest_component << " actors); " << g.groups.size() << " groups of equal actors.</p>";
  o << "<div class=\"two\"><div><table><tr><th>hottest actors</th><th>turn time</th><th>messages</th><th>turns</th></tr>";
  const double most = p.hottest.empty() ? 1 : double(std::max<std::uint64_t>(1, p.hottest.front().turn_ns));
  for (const auto& h : p.hottest)
    o << "<tr><td>actor " << h.actor << (h.group ? " (group " + std::to_string(h.group) + ")" : "") << "</td><td><span class=\"bar\" style=\"width:"
      << fixed(60.0 * double(h.turn_ns) / most, 0) << "px\"></span> " << fmt_ns(double(h.turn_ns)) << "</td><td>" << h.messages
      << "</td><td>" << h.turns << "</td></tr>";
  o << "</table></div><div><table><tr><th>busiest edges</th><th>messages</th></tr>";
  const double top = g.top_edges.empty() ? 1 : double(g.top_edges.front().messages);
  for (const auto& e : g.top_edges)
    o << "<tr><td>" << (e.from == start_vertex ? std::string("start") : "actor " + std::to_string(e.from)) << " → actor "
      << e.to << "</td><td><span class=\"bar\" style=\"width:" << fixed(60.0 * double(e.messages) / top, 0) << "px\"></span> "
      << e.messages << "</td></tr>";
  o << "</table></div></div>";
  return o.str();
}

std::string run_section(const report_run& r, const std::string& id, const std::string& title) {
  const run_profile& p = r.profile;
  const std::uint64_t range = std::max<std::uint64_t>(1, p.end_ns);
  std::ostringstream o;
  o << "<section id=\"run-" << id << "\"><h2>" << html_escape(title) << "</h2>" << run_facts(r);
  o << timeline_chart(p, "spells-" + id, id) << spells_json(p, "spells-" + id);
  o << time_chart("Throughput", {{"messages per second", "#2e8b57", "msgs/s", &p.throughput, p.bin_ns}}, range, id);
  o << time_chart("Runnable actors queued and parked workers",
                  {{"runnable actors", "#4c78a8", "", &p.runnable, p.bin_ns}, {"parked workers", "#9aa3b5", "", &p.parked, p.bin_ns}},
                  range, id);
  o << time_chart("Steals, donations, migrations (per column) and threads",
                  {{"steals", "#e45756", "", &p.steals, p.bin_ns},
                   {"donations", "#b279a2", "", &p.donations, p.bin_ns},
                   {"migrations", "#f58518", "", &p.migrations, p.bin_ns},
                   {"threads", "#1d2430", "", &p.threads, p.bin_ns}},
                  range, id);
  o << "<p class=\"note\">One column is " << fmt_ns(double(p.bin_ns)) << ". Totals: " << p.totals[unsigned(event_kind::steal)]
    << " steals, " << p.totals[unsigned(event_kind::donate)] << " donations, " << p.totals[unsigned(event_kind::migrate)]
    << " migrations, " << p.totals[unsigned(event_kind::park)] << " parks.</p>";
  o << "<h3>Queueing delay (send → handling begins)</h3>";
  if (p.delays.empty())
    o << "<p class=\"note\">Needs a full-level trace (sends and messages).</p>";
  else {
    o << "<div class=\"two\">";
    for (const auto& [group, h] : p.delays)
      o << delay_chart(h, group ? "actors of group " + std::to_string(group) : std::string("actors in no group"));
    o << "</div>";
  }
  o << graph_tables(p) << critical_path(p);
  if (p.causality.available) o << bound_chart({&p}, {"this run"});
  o << "</section>\n";
  return o.str();
}

/// The B − A cell: the relative change, or where it says nothing (from a zero or near-zero
/// base) the absolute one, a share's in points.
std::string change(const traces::diff_metric& m) {
  if (const auto r = m.relative()) return (*r >= 0 ? "+" : "") + fixed(100 * *r, 1) + "%";
  const auto dv = m.delta();
  if (!dv) return "—";
  return (*dv >= 0 ? "+" : "") + fmt_count(*dv) + (m.unit == "%" ? " points" : m.unit.empty() ? "" : " " + html_escape(m.unit));
}

std::string comparison(const std::vector<report_run>& runs, const traces::diff_report& d) {
  std::ostringstream o;
  o << "<section id=\"compare\"><h2>A vs B</h2>";
  const auto& lc = d.logical;
  const char* verdict = lc.state == traces::logical_check::verdict::equal    ? "<span class=\"ok\">logically equivalent</span>"
                        : lc.state == traces::logical_check::verdict::differ ? "<span class=\"bad\">logically different</span>"
                                                                              : "not checked";
  o << "<p>Deliveries per actor (and per group of equal actors): " << verdict;
  if (!lc.why.empty()) o << " — " << html_escape(lc.why);
  o << ".";
  if (!d.scenario_differences.empty()) {
    o << " The runs differ in ";
    for (std::size_t i = 0; i < d.scenario_differences.size(); ++i) o << (i ? "; " : "") << html_escape(d.scenario_differences[i]);
    o << ".";
  }
  o << "</p>";
  const std::vector<std::size_t> largest = traces::largest_differences(d, 3);
  o << "<p class=\"note\">The three largest differences are highlighted: the makespan first, then by relative change "
       "(a share of the time by its change in points); a change from a near-zero base shows its absolute size.</p>"
       "<table><tr><th>metric</th><th>A</th><th>B</th><th>B − A</th></tr>";
  auto val = [](const std::optional<double>& v) { return v ? fmt_count(*v) : std::string("—"); };
  for (std::size_t i = 0; i < d.metrics.size(); ++i) {
    const auto& m = d.metrics[i];
    const bool big = std::find(largest.begin(), largest.end(), i) != largest.end();
    o << "<tr" << (big ? " class=\"big\"" : "") << "><td>" << html_escape(m.name) << (m.unit.empty() ? "" : " (" + html_escape(m.unit) + ")")
      << "</td><td>" << val(m.a) << "</td><td>" << val(m.b) << "</td><td>"
      << change(m) << "</td></tr>";
  }
  o << "</table>";
  const run_profile &a = runs[0].profile, &b = runs[1].profile;
  const std::uint64_t range = std::max<std::uint64_t>({1, a.end_ns, b.end_ns});
  o << time_chart("Throughput, A and B", {{"A msgs/s", "#4c78a8", "", &a.throughput, a.bin_ns}, {"B msgs/s", "#e45756", "", &b.throughput, b.bin_ns}}, range, "ab");
  o << time_chart("Runnable actors queued, A and B", {{"A runnable", "#4c78a8", "", &a.runnable, a.bin_ns}, {"B runnable", "#e45756", "", &b.runnable, b.bin_ns}}, range, "ab");
  o << time_chart("Parked workers, A and B", {{"A parked", "#4c78a8", "", &a.parked, a.bin_ns}, {"B parked", "#e45756", "", &b.parked, b.bin_ns}}, range, "ab");
  if (a.causality.available || b.causality.available) o << bound_chart({&a, &b}, {"A", "B"});
  o << "</section>\n";
  return o.str();
}

}  // namespace

void write_page(std::ostream& out, const std::string& title, const std::string& body) {
  out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'; img-src data:\">\n"
         "<meta name=\"viewport\" content=\"width=device-width\"><title>"
      << html_escape(title) << "</title><style>" << report_css << "</style></head>\n<body>\n"
      << body << "<div id=\"tip\"></div>\n<script>" << report_js << "</script>\n</body></html>\n";
}

void write_report(std::ostream& out, const std::vector<report_run>& runs, const traces::diff_report* diff) {
  std::ostringstream body;
  const auto& h = runs.front().profile.header;
  std::string title = "twinsched report: " + h.scenario;
  body << "<h1>" << html_escape(title) << "</h1><p class=\"sub\">";
  if (runs.size() == 2) {
    const auto& hb = runs[1].profile.header;
    body << "A = " << html_escape(runs[0].path) << " (" << html_escape(h.backend + ", " + h.policy) << "), B = "
         << html_escape(runs[1].path) << " (" << html_escape(hb.backend + ", " + hb.policy) << ")";
  } else {
    body << html_escape(runs[0].path) << " — " << html_escape(h.backend + ", " + h.policy + ", " + std::to_string(h.workers) + " workers");
  }
  body << ". Times count from the run's start (its first event), as in <code>trace step</code> and the Perfetto export. "
          "Hover for values; wheel zooms the time charts together, drag pans, double-click resets.</p>\n";
  if (runs.size() == 2 && diff) body << comparison(runs, *diff);
  for (std::size_t i = 0; i < runs.size(); ++i)
    body << run_section(runs[i], i ? "B" : "A", runs.size() == 2 ? (i ? "Run B" : "Run A") : "The run");
  write_page(out, title, body.str());
}

}  // namespace twinsched::viz
