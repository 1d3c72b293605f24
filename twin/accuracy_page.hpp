// The accuracy matrix as an HTML page: each case's makespan error as a bar (viz/accuracy_report.hpp).
#pragma once
#include <string>
#include <vector>

#include "twin/accuracy_summary.hpp"

namespace twinsched::twin {

/// Writes the page to `path` through files::output_file (a temporary file renamed into place
/// when complete): a bar per case (a failed case listed, not drawn), the summary line as its note.
void write_accuracy_page(const std::string& path, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                         const accuracy_summary& sum);

}  // namespace twinsched::twin
