// Schedule perturbation (sim/schedule.hpp): schedules read back as written, a seed gives one run, and a listed schedule replays it exactly.
#include <doctest/doctest.h>

#include <string>

#include "sim/run_sim.hpp"
#include "sim/schedule.hpp"
#include "pingpong_sharing_park.hpp"

using namespace twinsched;

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

namespace {
sim_options with(const schedule_spec& spec) {
  sim_options o;
  o.cores = 3;
  o.schedule = spec;
  return o;
}
schedule_spec random_seed(std::uint64_t seed) {
  schedule_spec s;
  s.strategy = "random";
  s.seed = seed;
  s.p = 0.01;
  return s;
}
}  // namespace

TEST_CASE("a schedule's one-line text reads back as the same schedule") {
  schedule_spec r = random_seed(42);
  r.p = 0.0002;
  r.min_delay_ns = 150;
  schedule_spec back = parse_schedule(describe_schedule(r));
  CHECK(back.strategy == "random");
  CHECK(back.seed == 42);
  CHECK(back.p == 0.0002);
  CHECK(back.min_delay_ns == 150);
  CHECK(back.max_delay_ns == r.max_delay_ns);
  CHECK(describe_schedule(back) == describe_schedule(r));

  schedule_spec l;
  l.strategy = "list";
  l.list = parse_preemptions("2:880:4000,0:5213:12300");
  REQUIRE(l.list.size() == 2);
  CHECK(l.list[0].worker == 2);  // sorted by operation number
  CHECK(l.list[1].op == 5213);
  CHECK(describe_schedule(parse_schedule(describe_schedule(l))) == "list 2:880:4000,0:5213:12300");
  CHECK(parse_schedule("").strategy == "none");
  CHECK_THROWS_AS(parse_preemptions("1:2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_preemptions("x:2:3"), std::invalid_argument);
  CHECK_THROWS_AS(parse_schedule("random seed=1 nope=2"), std::invalid_argument);
}

TEST_CASE("the same schedule seed gives the same simulation, another seed another one") {
  scenario s = test::pingpong_sharing_park("schedule-test");
  sim_result a = simulate(s, with(random_seed(7))), b = simulate(s, with(random_seed(7))),
             c = simulate(s, with(random_seed(8))), plain = simulate(s, with(schedule_spec{}));
  REQUIRE(a.ok());
  REQUIRE(c.ok());
  CHECK(a.preemptions.size() > 10);  // p = 0.01 of a few thousand operations
  CHECK(plain.preemptions.empty());
  CHECK(differences(a, b).empty());
  CHECK(format_preemptions(a.preemptions) == format_preemptions(b.preemptions));
  CHECK(format_preemptions(a.preemptions) != format_preemptions(c.preemptions));
  CHECK(a.event_hash != plain.event_hash);
  for (const auto& p : a.preemptions) {
    CHECK(p.delay_ns == double(std::uint64_t(p.delay_ns)));  // whole ns: the printed list is exact
    CHECK(p.where.find(':') != std::string::npos);
  }
}

TEST_CASE("the list of preemptions a random schedule applied reproduces its run exactly") {
  scenario s = test::pingpong_sharing_park("schedule-test");
  sim_result drawn = simulate(s, with(random_seed(11)));
  schedule_spec listed;
  listed.strategy = "list";
  listed.list = parse_preemptions(format_preemptions(drawn.preemptions));
  sim_result again = simulate(s, with(listed));
  CHECK(again.event_hash == drawn.event_hash);
  CHECK(again.sim_s == drawn.sim_s);
  CHECK(format_preemptions(again.preemptions) == format_preemptions(drawn.preemptions));
}

TEST_CASE("a random schedule preempts each point with probability p, with delays in its range") {
  // The gaps between preemptions are drawn, not a coin per point: their count over many
  // points must still be p per point. 200,000 points, p = 0.01: 2,000 expected, sd ~45.
  schedule_spec spec = random_seed(11);
  spec.min_delay_ns = 300;
  spec.max_delay_ns = 9000;
  sim_detail::schedule_perturbation perturb(spec);
  std::size_t preempted = 0, first_half = 0;
  for (std::uint64_t op = 0; op < 200'000; ++op) {
    const double d = perturb.decide(int(op % 3), op / 3, "models/x.hpp", 1);
    if (d == 0) continue;
    ++preempted;
    if (op < 100'000) ++first_half;
    CHECK(d >= 300);
    CHECK(d <= 9000);
  }
  CHECK(preempted > 1800);
  CHECK(preempted < 2200);
  CHECK(first_half > 850);  // spread over the run, not bunched
  CHECK(first_half < 1150);
  CHECK(perturb.applied().size() == preempted);
  schedule_spec never = spec, always = spec;
  never.p = 0;
  always.p = 1;
  sim_detail::schedule_perturbation none(never), all(always);
  for (std::uint64_t op = 0; op < 1000; ++op) {
    CHECK(none.decide(0, op, "models/x.hpp", 1) == 0);
    CHECK(all.decide(0, op, "models/x.hpp", 1) > 0);
  }
}

TEST_CASE("a pct schedule preempts at depth - 1 change points") {
  scenario s = test::pingpong_sharing_park("schedule-test");
  sim_result plain = simulate(s, with(schedule_spec{}));
  schedule_spec pct;
  pct.strategy = "pct";
  pct.seed = 3;
  pct.depth = 4;
  pct.horizon = plain.points;
  sim_result r = simulate(s, with(pct));
  CHECK(r.ok());
  CHECK(r.preemptions.size() <= 3);
  CHECK(r.preemptions.size() >= 1);
  for (const auto& p : r.preemptions) CHECK(p.delay_ns >= pct.max_delay_ns);
}


TEST_CASE("adaptive's thread timeline stays within min_workers and max_workers whatever the schedule") {
  // The timeline records the policy's starts and retirements where it decides them
  // (policy.hpp, note_running). Recorded where the threads really started and left, a
  // retirement decided after a start could come first, and the timeline dipped below
  // min_workers (seen on real cores under TSan); preempting the starter between its
  // decision and its start reproduces that.
  scenario s;
  s.name = "schedule-test";
  s.workload = "burst";
  s.workload_params = {{"actors", std::int64_t(32)},    {"burst_msgs", std::int64_t(2000)},
                       {"cost_ns", std::int64_t(5000)}, {"idle_msgs", std::int64_t(1500)},
                       {"idle_cost_ns", std::int64_t(2000)}};
  s.sched.policy = "adaptive";
  s.sched.idle.strategy = "park";
  s.sched.workers = 2;
  s.sched.min_workers = 2;
  s.sched.max_workers = 3;
  s.sched.overload_after = 200;
  s.sched.retire_after_ns = 20'000;
  int scaled = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    schedule_spec spec = random_seed(seed);
    spec.p = 0.002;
    spec.max_delay_ns = 200'000;
    sim_result r = simulate(s, with(spec));
    CAPTURE(seed);
    REQUIRE(r.ok());
    if (r.run.peak_workers > 2) ++scaled;
    for (const auto& [t, n] : r.run.thread_timeline) {
      CAPTURE(t);
      CHECK(n >= 2);
      CHECK(n <= 3);
    }
  }
  CHECK(scaled > 0);  // the runs did start and retire threads
}

TEST_SUITE_END();
