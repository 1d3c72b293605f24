// The complete scenario a sweep cell runs, as JSON: what every result row records, and how two such records differ.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "sim/run_sim.hpp"

namespace twinsched {

/// Every setting the run of `s` uses, nested as in a scenario file: name, machine, seed,
/// [workload] (kind and every parameter, defaults filled), [scheduler] with [scheduler.idle]
/// (traces/scenario_text.hpp's canonical form, so it loads back as the same run). With `sim`,
/// a simulation's settings too: its machine replaces the scenario's, a kernel parameter the
/// scenario leaves unset takes the machine's calibrated value, and "sim" holds cores,
/// interleave, quantum_ns and time_limit_s, with the machine's cores and quantum where the
/// options leave them 0. Throws config_error (machine_error) when the machine cannot load.
nlohmann::ordered_json effective_scenario(scenario s, const sim_options* sim);

/// The values of a JSON object's leaves by dotted name ("workload.tokens"), in order.
std::vector<std::pair<std::string, nlohmann::ordered_json>> leaves(const nlohmann::ordered_json& j);

/// A leaf's value as text: a string as it is, anything else as JSON.
std::string leaf_text(const nlohmann::ordered_json& v);

/// One line per leaf that differs, "workload.tokens was 50, is 10" (or "was absent").
std::vector<std::string> differences(const nlohmann::ordered_json& before, const nlohmann::ordered_json& now);

}  // namespace twinsched
