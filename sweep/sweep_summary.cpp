// A sweep's closing lines and its report.
#include "sweep/sweep_summary.hpp"

#include <ostream>

#include "sweep/sweep_report.hpp"
#include "traces/output_file.hpp"

namespace twinsched {

std::string plural(std::size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

int finish_sweep(const sweep_request& r, const sweep_spec& spec, const std::vector<sweep_cell>& cells,
                 const result_files& results, const std::string& ran, std::ostream& out) {
  std::size_t ok = 0, fail = 0, error = 0;
  for (const auto& cell : cells) {
    auto it = results.rows().find(cell.key);
    if (it == results.rows().end()) continue;
    (it->second.verdict == "OK" ? ok : it->second.verdict == "FAIL" ? fail : error) += 1;
  }
  const std::size_t missing = cells.size() - ok - fail - error;
  out << "sweep " << spec.name << ": " << plural(cells.size(), "cell") << "; " << ran << "; " << ok << " OK, " << fail
      << " FAIL, " << error << " ERROR" << (missing ? ", " + std::to_string(missing) + " not run" : "") << '\n';
  out << "results " << results.csv_path() << ", " << results.jsonl_path() << " (what ran: " << results.record_path() << ")\n";
  if (!r.report.empty()) {
    sweep_report_options ro;
    if (!r.heatmap.empty()) {
      ro.heat_x = r.heatmap.substr(0, r.heatmap.find(','));
      ro.heat_y = r.heatmap.substr(r.heatmap.find(',') + 1);
    }
    files::output_file f(r.report);
    write_sweep_report(f.stream(), spec, results.rows(), ro);
    f.commit();
    out << "report " << r.report << '\n';
  }
  return ok == cells.size() ? 0 : 1;
}

}  // namespace twinsched
