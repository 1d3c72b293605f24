// The summary of one run, as aligned text for people or as one JSON object for tools.
#pragma once
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "models/run_result.hpp"

namespace twinsched::cli {

/// A parameter value as it would be written in a scenario file (42, 0.5, true, "x").
std::string param_text(const param_value& v);
/// Scenario, workload, configuration, totals, per-worker shares and counters, verdict.
void print_summary(std::ostream& out, const scenario& s, const run_result& r);
/// The same fields as print_summary, with `per_worker` as an array of objects.
nlohmann::json summary_json(const scenario& s, const run_result& r);

}  // namespace twinsched::cli
