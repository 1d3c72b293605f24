// An accuracy matrix as a report page: each case's signed makespan error as a bar, real beside simulated.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace twinsched::viz {

/// One case of `twinsched accuracy`: what the real runs measured and the simulation predicted.
struct accuracy_bar {
  std::string name;  ///< "forward stealing 2w"
  double real_s = 0, sim_s = 0;
  bool failed = false;  ///< no comparison (a run failed its verdict): listed, not drawn
};

/// The page: the bars (negative: the simulator predicts too short a run) with the ±10% and
/// ±25% bands marked, then the table. `note` is the summary line.
void write_accuracy_report(std::ostream& out, const std::string& title, const std::string& note,
                           const std::vector<accuracy_bar>& cases);

}  // namespace twinsched::viz
