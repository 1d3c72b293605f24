// The accuracy matrix as one JSON object: setup, every case, summary, host check, verdict.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "twin/accuracy_summary.hpp"

namespace twinsched::twin {

/// The same as print_accuracy as one JSON object: setup, cases (real, sim, error_pct per metric), summary, verdict.
nlohmann::json accuracy_json(const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                             const accuracy_summary& sum);

}  // namespace twinsched::twin
