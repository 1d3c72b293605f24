// The scheduler, seed, workload-parameter and --checks flags shared by `run` and `sim`.
#include "cli/scenario_flags.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/option_checks.hpp"
#include "scenarios/scenario_loader.hpp"

namespace twinsched::cli {

bool given(const CLI::Option* o) { return o && o->count() > 0; }

void scenario_flags::add_to(CLI::App& cmd, const std::string& workers_help) {
  workers_opt = cmd.add_option("--workers", sched.workers,
                               workers_help + " At most " + std::to_string(workers_limit) + ".")
                    ->type_name("N");
  takes_whole(workers_opt, 1, workers_limit);
  policy_opt = cmd.add_option("--policy", sched.policy,
                              "Scheduling policy: where runnable actors wait and who runs them "
                              "([scheduler] policy; `twinsched list policies`).")
                   ->type_name("P")
                   ->check(CLI::IsMember(policy_names()))
                   ->capture_default_str();
  idle_opt = cmd.add_option("--idle", sched.idle.strategy,
                            "What a worker with nothing to run does: spin, yield, sleep, back off or park "
                            "([scheduler.idle] strategy; `twinsched list idle`).")
                 ->type_name("S")
                 ->check(CLI::IsMember(idle_names()))
                 ->capture_default_str();
  burst_opt = cmd.add_option("--burst", sched.burst,
                             "Max messages an actor processes per turn before its worker moves on; "
                             "higher is faster, lower is fairer ([scheduler] burst).")
                  ->type_name("N")
                  ->capture_default_str();
  takes_whole(burst_opt, 1, std::numeric_limits<std::uint32_t>::max());
  fifo_opt = cmd.add_flag("--fifo,!--no-fifo", sched.fifo,
                          "stealing: --fifo makes a worker run its oldest runnable actor first (FIFO); "
                          "--no-fifo, the default, its newest (LIFO) ([scheduler] fifo).");
  steal_opt = cmd.add_option("--steal", sched.steal,
                             "stealing: an idle worker takes one actor or half of a random victim's queue "
                             "([scheduler] steal).")
                  ->type_name("MODE")
                  ->check(CLI::IsMember({"one", "half"}))
                  ->capture_default_str();
  min_workers_opt = cmd.add_option("--min-workers", sched.min_workers,
                                    "adaptive: threads never retire below this ([scheduler] min_workers).")
                        ->type_name("N");
  takes_whole(min_workers_opt, 1, workers_limit);
  max_workers_opt = cmd.add_option("--max-workers", sched.max_workers,
                                    "adaptive: threads never grow above this; 0 = --workers ([scheduler] max_workers).")
                        ->type_name("N");
  takes_whole(max_workers_opt, 0, workers_limit);
  overload_opt = cmd.add_option("--overload-after", sched.overload_after,
                                 "adaptive: messages a thread runs without going idle before it counts as "
                                 "overloaded ([scheduler] overload_after).")
                     ->type_name("N");
  takes_whole(overload_opt, 1, std::numeric_limits<std::uint32_t>::max());
  seed_opt = cmd.add_option("--seed", seed, "Seed for every random choice: steal victims, routing (top-level seed).")
                 ->type_name("N")
                 ->capture_default_str();
  takes_whole(seed_opt, 0, std::numeric_limits<std::uint64_t>::max());
  cmd.add_option("--param", params,
                 "Set a workload parameter, checked like a [workload] key in the file; repeat for more. "
                 "Names and defaults: `twinsched list workloads`.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd.add_flag("--checks", checks, "Also check at run time that no actor ever runs on two workers at once (slower).");
}

void scenario_flags::apply(scenario& s) const {
  if (given(workers_opt)) s.sched.workers = sched.workers;
  if (given(policy_opt)) s.sched.policy = sched.policy;
  if (given(idle_opt)) s.sched.idle.strategy = sched.idle.strategy;
  if (given(burst_opt)) s.sched.burst = sched.burst;
  if (given(fifo_opt)) s.sched.fifo = sched.fifo;
  if (given(steal_opt)) s.sched.steal = sched.steal;
  if (given(min_workers_opt)) s.sched.min_workers = sched.min_workers;
  if (given(max_workers_opt)) s.sched.max_workers = sched.max_workers;
  if (given(overload_opt)) s.sched.overload_after = sched.overload_after;
  if (given(seed_opt)) s.seed = seed;
  if (checks) s.sched.checks = true;
  for (const auto& p : params) apply_param_override(s, p);
}

}  // namespace twinsched::cli
