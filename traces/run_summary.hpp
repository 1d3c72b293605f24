// The summary of one run on either backend, as aligned text for people or as one JSON object for tools.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "models/run_result.hpp"

namespace twinsched::traces {

/// 16 hex digits.
std::string hex64(std::uint64_t x);
/// x with `digits` decimals.
std::string fixed(double x, int digits);
/// A parameter value as it would be written in a scenario file (42, 0.5, true, "x").
std::string param_text(const param_value& v);
/// Why the verdict failed ("checksum differs ...; 3 behaviors threw"); empty when r.ok().
std::string failure_reasons(const run_result& r);
/// Scenario, workload, configuration, totals, per-worker shares and counters, verdict.
void print_summary(std::ostream& out, const scenario& s, const run_result& r);
/// The same fields as print_summary, with `per_worker` as an array of objects; 64-bit
/// checksums as hex strings (a JSON number loses bits in most readers).
nlohmann::json summary_json(const scenario& s, const run_result& r);

}  // namespace twinsched::traces
