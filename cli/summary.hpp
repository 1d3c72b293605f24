// The summary of one run, as aligned text for people or as one JSON object for tools.
#pragma once
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::cli {

/// 16 hex digits.
std::string hex64(std::uint64_t x);
/// x with `digits` decimals.
std::string fixed(double x, int digits);
/// A parameter value as it would be written in a scenario file (42, 0.5, true, "x").
std::string param_text(const param_value& v);
/// Scenario, workload, configuration, totals, per-worker shares and counters, verdict.
void print_summary(std::ostream& out, const scenario& s, const run_result& r);
/// The same fields as print_summary, with `per_worker` as an array of objects.
nlohmann::json summary_json(const scenario& s, const run_result& r);
/// summary_json plus the simulator's fields (machine, cores, simulated and real time, event hash).
nlohmann::json sim_json(const scenario& s, const sim_result& r);
/// The simulator's lines under print_summary: machine and cores, simulator speed, event hash.
void print_sim_lines(std::ostream& out, const sim_result& r);

}  // namespace twinsched::cli
