// Cost profile files: what `twinsched profile` writes and `sim --costs` reads (TOML).
#pragma once
#include <string>

#include "models/cost_profile.hpp"

namespace twinsched {

/// The profile as a TOML document: its run (scenario, workload, workers), then one [[kind]]
/// table a kind of turn (behavior, tag, turns, mean_ns, quantiles_ns: 21 values, 0 to 100%).
std::string cost_profile_text(const cost_profile& p);

/// Reads a profile file; throws scenario_error naming file:line:column on a bad one (a
/// missing key, a wrong type, quantiles that are not 21 non-negative non-decreasing numbers).
cost_profile read_cost_profile(const std::string& path);

}  // namespace twinsched
