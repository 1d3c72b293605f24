// A sweep's HTML report: scaling per policy (messages/s against cores or workers) and a heat map over two axes.
#pragma once
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "sweep/sweep_row.hpp"

namespace twinsched {

struct sweep_report_options {
  std::string heat_x, heat_y;  ///< the heat map's axes; empty: the first two axes with several values (seed last)
};

/// The two axes a heat map uses by default; empty strings if the sweep has fewer than two.
std::pair<std::string, std::string> default_heat_axes(const sweep_spec& spec);

/// Writes a self-contained HTML page (inline SVG, no scripts). Means are over the cells that
/// passed (verdict OK); every other axis (seeds included) is averaged.
void write_sweep_report(std::ostream& out, const sweep_spec& spec, const std::map<std::string, sweep_row>& rows,
                        const sweep_report_options& o);

}  // namespace twinsched
