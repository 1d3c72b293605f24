// A sweep's closing lines and its report.
#include "sweep/sweep_summary.hpp"

#include <cstdio>
#include <ostream>

#include "sweep/sweep_report.hpp"
#include "traces/output_file.hpp"

namespace twinsched {

std::string plural(std::size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

std::string fixed_rate(double r) {
  char b[32];
  std::snprintf(b, sizeof b, r < 10 ? "%.2f" : "%.1f", r);
  return b;
}

std::string cell_tally::status(const sweep_display& d) const {
  const double t = d.elapsed_s(), rate = t > 0 ? double(done) / t : 0;
  std::string s = std::to_string(done) + "/" + std::to_string(total) + " cells, " + std::to_string(fail + error) +
                  " failed, " + fixed_rate(rate) + " cells/s, " + d.duration_text(t) + " elapsed";
  if (done > 0 && done < total) s += ", ETA " + d.duration_text(t / double(done) * double(total - done));
  return s;
}

void cell_tally::count(const sweep_row& r) {
  ++done;
  (r.verdict == "OK" ? ok : r.verdict == "FAIL" ? fail : error) += 1;
}

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
