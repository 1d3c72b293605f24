// flush's lookahead (sim/cost_model.cpp): a run with it is the run without it, bit for bit, and it does spare the solves it can
// (skips, hand-offs from one worker to the next, holds).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("sim");

using namespace twinsched;

namespace {

struct run_case {
  std::string scenario;  ///< stock name
  std::string policy, idle;
  std::uint32_t cores;
  std::vector<std::pair<std::string, std::string>> params;
  std::uint32_t workers = 0;  ///< 0: one per core
  std::string interleave = "coarse";
  double time_limit_s = 60;
  std::uint64_t schedule_seed = 0;  ///< non-zero: explore's random preemptions
  double schedule_p = 0.01;         ///< their probability per scheduling point
  bool checks = false;              ///< explore's run-time checks (scheduler checks)
};

scenario load(const run_case& c) {
  scenario s = load_scenario(c.scenario);
  s.sched.policy = c.policy;
  if (!c.idle.empty()) s.sched.idle.strategy = c.idle;
  s.sched.workers = c.workers ? c.workers : c.cores;
  s.sched.checks = c.checks;
  for (const auto& [k, v] : c.params) apply_param_override(s, k + "=" + v);
  return s;
}

sim_options options(const run_case& c, bool lookahead) {
  sim_options o;
  o.cores = c.cores;
  o.interleave = c.interleave;
  o.time_limit_s = c.time_limit_s;
  o.lookahead = lookahead;
  if (c.schedule_seed) {
    o.schedule.strategy = "random";
    o.schedule.p = c.schedule_p;
    o.schedule.seed = c.schedule_seed;
  }
  return o;
}

struct spared {
  std::uint64_t skips = 0, hand_offs = 0, holds = 0, flushes = 0;
};

/// Both runs of `c`; checks they are the same run and returns what the lookahead spared.
spared same_either_way(const run_case& c) {
  const scenario s = load(c);
  const sim_result with = simulate(s, options(c, true)), without = simulate(s, options(c, false));
  std::string all;
  for (auto& x : differences(with, without)) all += x + "; ";
  CAPTURE(c.scenario);
  CAPTURE(c.policy);
  CAPTURE(c.idle);
  CAPTURE(c.cores);
  CAPTURE(all);
  CHECK(all.empty());
  CHECK(with.event_hash == without.event_hash);
  CHECK(with.flushes == without.flushes);
  CHECK(without.lookahead_skips + without.hand_offs + without.holds == 0);
  CHECK(with.lookahead_skips + with.hand_offs + with.holds <= with.flushes);
  return {with.lookahead_skips, with.hand_offs, with.holds, with.flushes};
}

}  // namespace

TEST_CASE("one busy worker among waiting ones: most yields skip SimGrid, and the run is the same") {
  // pingpong's one message bounces between two actors: one worker busy at a time, the
  // others parked (their timed parks are dated waits the lookahead must not overtake)
  for (const char* idle : {"park", "backoff", "sleep"}) {
    CHECK(same_either_way({"pingpong", "stealing", idle, 4, {{"bounces", "50000"}}}).skips > 0);
  }
  // spinning idle workers yield every quantum like busy ones: nothing to skip, same run
  same_either_way({"pingpong", "stealing", "busy-spin", 4, {{"bounces", "50000"}}});
  // the open loop's timer service (a timed park, arrivals delivered by notify) at 10% load
  CHECK(same_either_way({"open-light", "stealing", "park", 4, {}}).skips > 0);
  CHECK(same_either_way({"open-light", "sharing", "backoff", 2, {}}).skips > 0);
}

TEST_CASE("every worker busy: the one due next takes over without SimGrid's solve, and the run is the same") {
  // forward's workers all busy: nearly every flush hands off to a held worker; workers whose
  // stolen work ties their clocks to each other's would reach equal dates (clear_of_ties
  // parts them; a timed wait may still tie), and 64 cores with 4 tokens hold idle workers
  // between parks
  const spared busy = same_either_way({"forward", "stealing", "", 4, {{"actors", "100"}, {"tokens", "20"}, {"hops", "1000"}}});
  CHECK(busy.hand_offs > 0);
  CHECK(busy.holds > 0);
  CHECK(same_either_way({"savina/fib", "stealing", "", 4, {}}).hand_offs > 0);
  // 64 busy workers: no two payments end at one instant (clear_of_ties), so SimGrid's solve
  // is left out of nearly every flush there too
  const spared many = same_either_way({"forward", "stealing", "", 64, {{"actors", "1000"}, {"tokens", "200"}, {"hops", "500"}}});
  CHECK(many.hand_offs > 0.9 * double(many.flushes));
  const spared wide = same_either_way({"forward", "stealing", "backoff", 64, {{"tokens", "4"}, {"hops", "20000"}}});
  // the releases of 64 cores' start (every worker made runnable) must not keep holding off
  // for the rest of the run: a backoff ends with a grace of releases (cost_model.cpp, release)
  CHECK(wide.hand_offs > 0.05 * double(wide.flushes));
  same_either_way({"fanout-idle", "distribution", "park", 4, {}});
}

TEST_CASE("busy workers, locks, blocking, more workers than cores, fine interleaving: the same run") {
  same_either_way({"forward", "stealing", "", 4, {{"hops", "300"}}});
  same_either_way({"forward", "shared-queue", "", 4, {{"hops", "300"}}});
  same_either_way({"forward", "sharing", "park", 3, {{"hops", "300"}}});
  same_either_way({"savina/count", "shared-queue", "", 4, {}});  // parks, and locks that block
  same_either_way({"savina/philosopher", "distribution", "", 4, {}});
  same_either_way({"open-medium", "adaptive", "", 4, {}});       // workers started and retired mid-run
  same_either_way({"pingpong", "stealing", "park", 2, {{"bounces", "20000"}}, 3});  // a shared core: no lookahead there
  same_either_way({"pingpong", "sharing", "park", 3, {{"bounces", "2000"}}, 0, "fine"});
}

TEST_CASE("explored schedules and a run that hits its time limit: the same run") {
  same_either_way({"pingpong", "sharing", "park", 3, {{"bounces", "5000"}}, 0, "coarse", 60, 7});
  same_either_way({"forward", "stealing", "backoff", 3, {{"hops", "200"}}, 0, "coarse", 60, 11});
  // a worker's first blocking lock makes its S4U parts (a simcall, in which another worker
  // ran): it must go on as itself; it paid the other's charges, and the lookahead, reading
  // the wrong worker, made another run of it (explore's mutant 2 scenario, clean tree, seed 155)
  same_either_way({"pingpong", "distribution", "park", 3, {{"pairs", "3"}, {"bounces", "500"}}, 0, "coarse", 10, 155, 0.0005, true});
  // forward needs far more than 100 simulated us: aborted at the limit, both ways alike
  same_either_way({"forward", "stealing", "park", 2, {{"hops", "2000"}}, 0, "coarse", 1e-4});
}
