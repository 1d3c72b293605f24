// The trace diff as text: the report printed as `twinsched diff` and `twinsched validate` show it.
#pragma once
#include <iosfwd>

#include "diff.hpp"

namespace twinsched::traces {

/// Headers, scenario differences, the metric table, notes, logical equivalence, the first
/// divergence (events as describe() writes them) and, with a tolerance, its verdict.
void print_diff(std::ostream& out, const diff_report& d);

}  // namespace twinsched::traces
