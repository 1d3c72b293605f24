// The trace diff as JSON: the report as the one object `twinsched diff --json` prints.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "diff.hpp"

namespace twinsched::traces {

/// The report's fields, every metric row with its delta and relative difference, and the
/// first divergence's events as objects; "exit_code" is diff_report::exit_code().
nlohmann::json diff_json(const diff_report& d);

}  // namespace twinsched::traces
