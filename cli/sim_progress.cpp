// simulate() with a progress line: poll the simulation's progress page.
#include "cli/sim_progress.hpp"

#include <fcntl.h>
#include <poll.h>

namespace twinsched::cli {

std::string sim_status(const sim_progress& sp) {
  std::string s = "simulated " + sim_time_text(sp.sim_s) + ", " + count_of_text(sp.messages, sp.expected_messages, "messages");
  if (sp.recorded_turns) s += ", " + count_of_text(sp.turns, sp.recorded_turns, "recorded turns");
  return s;
}

sim_result simulate_with_progress(progress& p, const scenario& s, const sim_options& o, const std::string& what) {
  if (!p.enabled()) return simulate(s, o);
  const double t0 = p.elapsed_s();
  running_simulation r = start_simulation(s, o);
  ::fcntl(r.fd, F_SETFL, ::fcntl(r.fd, F_GETFL) | O_NONBLOCK);
  for (;;) {
    pollfd fd{r.fd, POLLIN, 0};
    ::poll(&fd, 1, 250);
    if (read_available(r)) break;
    p.update(what + ": " + sim_status(progress_of(r)) + ", " + duration_text(p.elapsed_s() - t0));
  }
  return finish_simulation(r);
}

}  // namespace twinsched::cli
