// The analysis of a trace as `twinsched analyze` prints it: text for a person, or one JSON object.
#pragma once
#include <iosfwd>
#include <nlohmann/json.hpp>

#include "run_profile.hpp"

namespace twinsched::viz {

/// The trace, its communication graph, the causality DAG's work, span and bound (or why it is
/// not available) and, for a real run, what the host took from each worker.
nlohmann::json analysis_json(const run_profile& p);
/// The same as lines: "work          1.2 ms in 300 message handlings", ...
void write_analysis_text(std::ostream& o, const run_profile& p);

}  // namespace twinsched::viz
