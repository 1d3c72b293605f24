// The report's charts as inline SVG: time series, the worker timeline, delay histograms, the speed-up bound.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "run_profile.hpp"

namespace twinsched::viz {

/// One line of a time chart: values[k] covers [k bin_ns, (k + 1) bin_ns) of its run.
struct line_series {
  std::string name, color, unit;
  const std::vector<float>* values;
  std::uint64_t bin_ns;
};

/// A line chart over time (zoom and pan with the other charts of the same `link`).
std::string time_chart(const std::string& caption, const std::vector<line_series>& lines, std::uint64_t range_ns,
                       const std::string& link);
/// One row per worker: the share of each column spent running / idle / parked; zoomed in,
/// the exact spells (the JSON script with id `spells_id`, written by spells_json).
std::string timeline_chart(const run_profile& p, const std::string& spells_id, const std::string& link);
std::string spells_json(const run_profile& p, const std::string& id);
/// Log-binned queueing delays with p50, p90 and p99 marked.
std::string delay_chart(const delay_histogram& h, const std::string& caption);
/// The speed-up bound work / max(work/N, span) over N, each run's achieved speed-up marked.
std::string bound_chart(const std::vector<const run_profile*>& runs, const std::vector<std::string>& names);

std::string html_escape(const std::string& s);
/// "12.3 ms", "4.56 s", "870 ns".
std::string fmt_ns(double ns);
/// "1.23 M", "45.6 k", "12".
std::string fmt_count(double v);

}  // namespace twinsched::viz
