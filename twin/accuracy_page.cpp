// The accuracy matrix as an HTML page: each case's makespan error as a bar (viz/accuracy_report.hpp).
#include "twin/accuracy_page.hpp"

#include "traces/output_file.hpp"
#include "viz/accuracy_report.hpp"

namespace twinsched::twin {

void write_accuracy_page(const std::string& path, const accuracy_setup& setup, const std::vector<accuracy_case>& cases,
                         const accuracy_summary& sum) {
  std::vector<viz::accuracy_bar> bars;
  for (const auto& c : cases)
    bars.push_back({case_name(c.s), c.ok() ? c.real.wall_s : 0, c.ok() ? c.sim.run.wall_s : 0, !c.ok()});
  files::output_file page(path);
  viz::write_accuracy_report(page.stream(), "twinsched accuracy on " + setup.machine, makespan_summary(sum), bars);
  page.commit();
}

}  // namespace twinsched::twin
