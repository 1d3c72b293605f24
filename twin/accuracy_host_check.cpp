// The accuracy matrix's host check: line-transfer probes around the real runs against the model's figure.
#include "twin/accuracy_host_check.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <vector>

#include "twin/calibrate.hpp"

namespace twinsched::twin {

bool probe_matches(const accuracy_setup& setup, double probe_ns) {
  return setup.model_line_ns <= 0 || same_line_state(probe_ns, setup.model_line_ns);
}

bool host_matches_model(const accuracy_setup& setup, const accuracy_summary& sum) {
  return sum.host_moved == 0 && (setup.runs_in_state > 0 || setup.runs_off_state == 0);
}

std::string host_check_text(const accuracy_setup& setup, const accuracy_summary& sum) {
  const auto& p = setup.host_line_ns;
  if (p.empty()) return "";
  std::string t = "line transfer here: " + figure_text("%.1f ns before the real runs", p.front());
  if (p.size() > 1) {
    const auto [lo, hi] = std::minmax_element(p.begin(), p.end());
    t += figure_text(", %.1f after", p.back()) + figure_text(" (%.1f", *lo) + figure_text("-%.1f", *hi) + " over " +
         std::to_string(p.size()) + " probes, one after each run)";
  }
  t += figure_text("; the model: %.1f ns", setup.model_line_ns);
  const std::size_t runs = setup.runs_in_state + setup.runs_off_state;
  if (runs) {
    t += "; " + std::to_string(setup.runs_in_state) + " of " + std::to_string(runs) +
         " measured runs in the model's state (both probes around the run within 2x";
    if (setup.reran) t += "; " + std::to_string(setup.reran) + " of the " + std::to_string(runs) + " re-runs, for runs the host spoiled";
    t += ")";
  }
  if (runs && setup.runs_in_state == 0)
    t += ". Not one: this machine is not in the state the model was calibrated in (a VM whose host moved its CPUs, "
         "another machine), and every case between cores is judged against the wrong machine. Run `twinsched "
         "calibrate -o FILE` now and pass --machine FILE";
  if (sum.host_moved)
    t += ". " + std::to_string(sum.host_moved) + " case" + (sum.host_moved == 1 ? " has" : "s have") +
         " no real run in that state and " + (sum.host_moved == 1 ? "is" : "are") +
         " left out of the summary (marked *): this machine was not in the state the model was calibrated in (a VM "
         "whose host moved its CPUs, another machine), and a case between cores would be judged against the wrong "
         "machine. Run `twinsched calibrate -o FILE` now and pass --machine FILE";
  return t;
}

std::string host_warning(const accuracy_setup& setup) {
  return "accuracy: warning: line transfer here " + figure_text("%.1f ns", setup.host_line_ns.back()) +
         figure_text(", the model's %.1f: over 2x apart", setup.model_line_ns) +
         " (the host moved this VM's CPUs, or this is another machine). Runs made in this state are re-run "
         "(--reruns) and, failing that, left out, unless no run finds the model's state. Run `twinsched calibrate -o "
         "FILE` now and pass --machine FILE";
}

std::function<double()> host_probe() {
  auto scripted = std::make_shared<std::vector<double>>();
  const char* env = std::getenv("TWINSCHED_TEST_PROBES");
  std::stringstream ss(env ? env : "");
  for (std::string item; std::getline(ss, item, ',');) scripted->push_back(std::stod(item));
  if (scripted->empty()) return probe_line_transfer_ns;
  return [scripted, i = std::size_t(0)]() mutable { return (*scripted)[std::min(i++, scripted->size() - 1)]; };
}

}  // namespace twinsched::twin
