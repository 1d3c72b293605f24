// Explore's search: many schedules of one scenario in the process pool, the first failure in seed order, and shrinking it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "explore/verdict.hpp"
#include "jobs/process_pool.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::explore {

/// Starts one run under the options `o` (a child process) as a pool job; the job's finish
/// judges the run into `out` and returns whether it failed.
using trial = std::function<jobs::started_job(const sim_options& o, outcome& out)>;
/// The trial explore runs: the batch's scenario simulated under the options (sim_batch::start), judged.
trial simulation_trial(const sim_batch& b);

struct search_options {
  unsigned jobs = 1;        ///< runs at once
  double wall_limit_s = 0;  ///< start no run after this many wall-clock seconds (0: no limit)
  std::function<void(std::size_t done, std::size_t failures)> progress;  ///< about once a second
};

/// Runs each of `schedules` through `t`, `o.jobs` at a time, and returns their outcomes in
/// order; once one fails, the schedules after it are not started (every one before it is:
/// the first failure is the same whatever `o.jobs`). nullopt: not run. A run whose process
/// crashed is a failure of kind "crash".
std::vector<std::optional<outcome>> run_schedules(const std::vector<sim_options>& schedules, const trial& t,
                                                  const search_options& o);

/// `runs` copies of `base` whose schedule is `spec` with the seeds spec.seed, spec.seed + 1, ...
std::vector<sim_options> draw_schedules(const sim_options& base, const schedule_spec& spec, std::uint64_t runs);

/// What a search found.
struct search_result {
  std::size_t ran = 0;                ///< schedules that ran (fewer than asked at a wall-clock limit or a failure)
  std::optional<std::size_t> failed;  ///< the first failing schedule's index
  std::vector<std::optional<outcome>> outcomes;
};
search_result search(const std::vector<sim_options>& schedules, const trial& t, const search_options& o);

/// `failing` with `list` as its schedule: exactly those preemptions.
sim_options with_preemptions(const sim_options& failing, const std::vector<preemption>& list);

/// Delta debugging (ddmin.hpp) over a failing run's preemptions: the fewest that still break
/// the invariant `kind`. Each round's candidates run `jobs` at a time; `tries` counts the runs.
std::vector<preemption> shrink_schedule(const sim_options& failing, std::vector<preemption> list, const std::string& kind,
                                        const trial& t, unsigned jobs, std::size_t& tries);

}  // namespace twinsched::explore
