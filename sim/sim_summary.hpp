// The summary of simulations: one run's summary plus what only a simulation has, as text or
// JSON; the scaling table of a scenario simulated over several core counts; the verdict of
// running each simulation twice (--check-determinism).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_sim.hpp"

namespace twinsched {

/// One simulation: the scenario as simulated and its result. With a determinism check
/// (`checked`), the first difference between its two runs ("" if none: first_difference).
struct sim_run {
  scenario s;
  sim_result r;
  bool checked = false;
  std::string difference;
};

/// summary_json plus the simulator's fields (machine, cores, simulated and real time, event hash).
nlohmann::json sim_json(const scenario& s, const sim_result& r);
/// The simulator's lines under print_summary: machine and cores, simulator speed, event hash.
void print_sim_lines(std::ostream& out, const sim_result& r);

/// The first field where two results of one simulation differ, with "(and N more fields)"
/// when there are more; "" when they are the same.
std::string first_difference(const sim_result& a, const sim_result& b);
/// The scaling table's title and column names, from its first simulation.
std::string scaling_header(const sim_run& first, const std::string& interleave);
/// One row of the scaling table (and its errors, if it failed); `base` is the first row's msgs/s.
std::string scaling_row(const sim_run& run, double base);

/// What `sim` prints once its simulations have run: with `json`, one object (an array for
/// several); under a scaling table (its rows printed as they came), the determinism line if
/// checked; for one simulation, the run's summary, the simulator's lines, the determinism
/// verdict if checked and, when `schedule` is active, the preemptions it applied.
void print_sim_runs(std::ostream& out, const std::vector<sim_run>& runs, bool json, const schedule_spec& schedule);
/// Every simulation's verdict OK and none differing between its two runs.
bool runs_ok(const std::vector<sim_run>& runs);

}  // namespace twinsched
