// The accuracy matrix as text: the makespan table, the counters table and the summary lines.
#pragma once
#include <ostream>
#include <vector>

#include "twin/accuracy_summary.hpp"

namespace twinsched::twin {

/// The two tables (makespan; busy share and counters as real/sim and error) and the summary
/// lines, aligned for a terminal or as Markdown.
void print_accuracy(std::ostream& out, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                    const accuracy_summary& sum, bool markdown);

}  // namespace twinsched::twin
