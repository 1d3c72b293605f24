// The trace diff as text: the report as the table and verdict lines `twinsched diff` and `validate` print.
#include "diff_text.hpp"

#include <cmath>
#include <cstdio>
#include <ostream>

#include "models/config.hpp"

namespace twinsched::traces {
namespace {

/// A value in the table: 4 significant digits when huge or tiny, whole when whole or >= 1000, else 3 decimals.
std::string fmt(double v) {
  char b[40];
  const double m = std::fabs(v);
  if (m != 0 && (m >= 1e7 || m < 1e-3))
    std::snprintf(b, sizeof b, "%.4g", v);
  else if (m >= 1000 || v == std::floor(v))
    std::snprintf(b, sizeof b, "%.0f", v);
  else
    std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

}  // namespace

void print_diff(std::ostream& out, const diff_report& d) {
  char line[256];
  auto head = [&](const char* tag, const std::string& file, const trace_header& h) {
    out << tag << "  " << file << ": " << h.scenario << ", " << h.backend << ", " << h.policy << "/" << h.idle << ", "
        << h.workers << " workers, " << level_name(h.level) << " trace\n";
  };
  head("A", d.file_a, d.a);
  head("B", d.file_b, d.b);
  if (d.same_scenario) {
    out << "scenario  the same (hash " << hex_digits(d.a.scenario_hash) << ")\n";
  } else {
    out << "scenario  differs" << (d.same_workload ? " (same workload: same messages expected)" : "") << ":\n";
    for (const auto& s : d.scenario_differences) out << "            " << s << '\n';
  }
  std::snprintf(line, sizeof line, "\n%-26s %16s %16s %14s %9s\n", "metric", "A", "B", "B - A", "rel");
  out << line;
  for (const auto& m : d.metrics) {
    const std::string name = m.unit.empty() ? m.name : m.name + " (" + m.unit + ")";
    const std::string a = m.a ? fmt(*m.a) : "-", b = m.b ? fmt(*m.b) : "-";
    std::string delta = "-", rel = "-";
    if (auto dv = m.delta()) {
      delta = (*dv >= 0 ? "+" : "") + fmt(*dv);
      if (auto r = m.relative()) {
        char rb[24];
        std::snprintf(rb, sizeof rb, "%+.1f%%", *r * 100);
        rel = rb;
      } else {
        rel = m.near_zero_base() ? "base ~0" : "new";  // no percentage of (almost) nothing: B - A says it
      }
    }
    std::snprintf(line, sizeof line, "%-26s %16s %16s %14s %9s%s\n", name.c_str(), a.c_str(), b.c_str(), delta.c_str(),
                  rel.c_str(), m.over ? "  > tolerance" : "");
    out << line;
  }
  for (const auto& n : d.notes) out << "note: " << n << '\n';
  out << "\nlogical equivalence  ";
  switch (d.logical.state) {
    case logical_check::verdict::equal:
      out << "equal: " << d.logical.actors_a << " actors, same delivery counts"
          << (d.logical.digests_compared ? " and payload digests" : "") << ", same checksum";
      if (d.logical.groups) out << " (" << d.logical.groups << " groups of equal actors compared as wholes)";
      out << '\n';
      break;
    case logical_check::verdict::differ:
      if (d.logical.differing)
        out << "DIFFERS for " << d.logical.differing << " actors; first: " << d.logical.why << '\n';
      else
        out << "DIFFERS: " << d.logical.why << '\n';
      break;
    case logical_check::verdict::unavailable:
      out << "not checked: " << d.logical.why << '\n';
      break;
  }
  if (d.logical.state != logical_check::verdict::unavailable && !d.logical.digests_compared)
    out << "                     per-actor payload digests not compared: " << d.logical.digest_note << '\n';
  out << "first divergence     ";
  if (!d.first.checked) {
    out << "not checked: " << d.first.why_not << '\n';
  } else if (d.first.identical) {
    out << "none: the " << d.first.index << " events are identical\n";
  } else {
    out << "after " << d.first.index << " equal events\n";
    for (const auto& e : d.first.before) out << "    = " << describe(e) << '\n';
    for (const auto& e : d.first.after_a) out << "  A > " << describe(e) << '\n';
    if (d.first.after_a.empty()) out << "  A > (end of trace)\n";
    for (const auto& e : d.first.after_b) out << "  B > " << describe(e) << '\n';
    if (d.first.after_b.empty()) out << "  B > (end of trace)\n";
  }
  if (d.tolerance) {
    std::snprintf(line, sizeof line, "%g%%", *d.tolerance * 100);
    out << "tolerance " << line << "        ";
    if (!d.over_tolerance()) {
      out << "every gated metric within it\n";
    } else {
      out << "exceeded by:";
      for (const auto& m : d.metrics)
        if (m.over) out << ' ' << m.name << ';';
      out << '\n';
    }
  }
}

}  // namespace twinsched::traces
