// A scenario simulated on each of a list of core counts, optionally twice each.
#include "scaling_run.hpp"

namespace twinsched {

std::vector<sim_run> simulate_on_cores(const scenario& s, const sim_options& o, const std::vector<std::uint32_t>& cores,
                                       bool keep_workers, bool twice, const simulate_fn& simulate,
                                       const std::function<void(const std::vector<sim_run>&)>& done) {
  std::vector<sim_run> runs;
  for (std::uint32_t n : cores) {
    sim_run& run = runs.emplace_back();
    run.s = s;
    if (!keep_workers && n) run.s.sched.workers = n;
    sim_options on = o;
    on.cores = n;
    const std::string what =
        s.name + " on " + (n == 1 ? "1 core" : n ? std::to_string(n) + " cores" : "the machine's cores");
    run.r = simulate(run.s, on, what);
    run.checked = twice;
    if (twice) run.difference = first_difference(run.r, simulate(run.s, on, what + " (again)"));
    done(runs);
  }
  return runs;
}

}  // namespace twinsched
