// The scheduler, seed, workload-parameter and --checks flags shared by `run` and `sim`.
#include "cli/scenario_flags.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <CLI/CLI.hpp>

#include "cli/option_checks.hpp"
#include "models/registry.hpp"
#include "scenarios/scenario_loader.hpp"

namespace twinsched::cli {

bool given(const CLI::Option* o) { return o && o->count() > 0; }

namespace {

/// "\n  NAME  what it does" per registered entry.
template <class Entries>
std::string choices_help(const Entries& entries) {
  std::string h;
  for (const auto& e : entries) h += "\n  " + e.name + ": " + e.description;
  return h;
}

}  // namespace

/// A flag for knob `k` of `owner` (a policy, or "--idle NAME"), named after its key, holding its
/// value in `c` (micros in `micros`); apply() copies a given one into the scenario.
template <class C>
void scenario_flags::add_knob(CLI::App& cmd, const std::string& owner, const std::string& table, const knob<C>& k, C& c) {
  const std::string help = owner + ": " + k.help + " (" + table + " " + k.key + ").";
  CLI::Option* o = nullptr;
  auto field = [](scenario& s) -> C& {
    if constexpr (std::is_same_v<C, idle_config>) return s.sched.idle;
    else return s.sched;
  };
  if (k.boolean) {
    const std::string f = k.flag();
    o = cmd.add_flag(f + ",!--no-" + f.substr(2), c.*k.boolean, help);
    knob_flags.emplace_back(o, [&c, k, field](scenario& s) { field(s).*k.boolean = c.*k.boolean; });
    return;
  }
  if (k.text) {
    o = cmd.add_option(k.flag(), c.*k.text, help)->type_name("MODE")->check(CLI::IsMember(k.choice_names()))->capture_default_str();
    knob_flags.emplace_back(o, [&c, k, field](scenario& s) { field(s).*k.text = c.*k.text; });
    return;
  }
  if (k.u32) {
    o = takes_whole(cmd.add_option(k.flag(), c.*k.u32, help)->type_name("N")->capture_default_str(), k.min,
                    std::min<std::uint64_t>(k.max, std::numeric_limits<std::uint32_t>::max()));
    knob_flags.emplace_back(o, [&c, k, field](scenario& s) { field(s).*k.u32 = c.*k.u32; });
    return;
  }
  if (k.micros) {
    std::uint64_t& us = micros[k.key] = c.*k.u64 / 1000;
    o = takes_whole(cmd.add_option(k.flag(), us, help)->type_name("US")->capture_default_str(), k.min,
                    std::min<std::uint64_t>(k.max, std::numeric_limits<std::uint64_t>::max() / 1000));  // ns fit
    knob_flags.emplace_back(o, [&us, k, field](scenario& s) { field(s).*k.u64 = us * 1000; });
    return;
  }
  o = takes_whole(cmd.add_option(k.flag(), c.*k.u64, help)->type_name("N")->capture_default_str(), k.min, k.max);
  knob_flags.emplace_back(o, [&c, k, field](scenario& s) { field(s).*k.u64 = c.*k.u64; });
}

void scenario_flags::add_to(CLI::App& cmd, const std::string& workers_help) {
  workers_opt = cmd.add_option("--workers", sched.workers,
                               workers_help + " At most " + std::to_string(workers_limit) + ".")
                    ->type_name("N");
  takes_whole(workers_opt, 1, workers_limit);
  policy_opt = cmd.add_option("--policy", sched.policy,
                              "Scheduling policy: where runnable actors wait and who runs them "
                              "([scheduler] policy; `twinsched list policies`):" + choices_help(policy_catalog()))
                   ->type_name("P")
                   ->check(CLI::IsMember(policy_names()))
                   ->capture_default_str();
  idle_opt = cmd.add_option("--idle", sched.idle.strategy,
                            "What a worker with nothing to run does ([scheduler.idle] strategy; "
                            "`twinsched list idle`):" + choices_help(idle_catalog()))
                 ->type_name("S")
                 ->check(CLI::IsMember(idle_names()))
                 ->capture_default_str();
  burst_opt = cmd.add_option("--burst", sched.burst,
                             "Max messages an actor processes per turn before its worker moves on; "
                             "higher is faster, lower is fairer ([scheduler] burst).")
                  ->type_name("N")
                  ->capture_default_str();
  takes_whole(burst_opt, 1, std::numeric_limits<std::uint32_t>::max());
  for (const policy_entry& e : policy_catalog())
    for (const auto& k : e.knobs) add_knob(cmd, e.name, "[scheduler]", k, sched);
  for (const idle_entry& e : idle_catalog())
    for (const auto& k : e.knobs) add_knob(cmd, "--idle " + e.name, "[scheduler.idle]", k, sched.idle);
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
  for (const auto& [opt, set] : knob_flags)
    if (given(opt)) set(s);
  if (given(seed_opt)) s.seed = seed;
  if (checks) s.sched.checks = true;
  for (const auto& p : params) apply_param_override(s, p);
}

}  // namespace twinsched::cli
