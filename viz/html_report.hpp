// `twinsched report`: one self-contained HTML page (inline SVG, inline script, no network) of one or two traces.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "run_profile.hpp"
#include "traces/diff.hpp"

namespace twinsched::viz {

struct report_run {
  std::string path;  ///< the trace file, shown as given
  run_profile profile;
};

/// Writes the page. With two runs, `diff` (traces::diff_traces of the two) adds the metric
/// table with the largest differences highlighted, the logical-equivalence verdict, and the
/// time charts of both runs overlaid.
void write_report(std::ostream& out, const std::vector<report_run>& runs, const traces::diff_report* diff);

/// The page's skeleton, shared with the scaling report: head (style, the CSP that forbids any
/// load), the title, then `body`, the tooltip and the script.
void write_page(std::ostream& out, const std::string& title, const std::string& body);

}  // namespace twinsched::viz
