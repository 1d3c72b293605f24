// Idle workers: the strategies when workers outnumber the hardware threads, and how a worker's time splits into busy and idle.
#include <doctest/doctest.h>

#include <cstdint>
#include <ctime>
#include <string>

#include "models/idle/idle_strategy.hpp"
#include "runtime/run_threads.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

TEST_CASE("crowding: the workers per hardware thread, rounded up, 1 when each worker has its own") {
  CHECK(crowding(1, 2) == 1);
  CHECK(crowding(2, 2) == 1);
  CHECK(crowding(3, 2) == 2);
  CHECK(crowding(1024, 2) == 512);
  CHECK(crowding(8, 0) == 8);  // a platform that cannot say counts as one thread
}

TEST_CASE("backoff keeps its phases with a thread per worker, and skips the spins and stretches the parks when crowded") {
  const idle_config c;  // the defaults: 64 spins, 16 yields, parks 10 us doubling to 1 ms
  const idle_strategy alone(c, 1), crowded(c, 512);
  CHECK(alone.next(0).what == idle_decision::spin);
  CHECK(alone.next(63).what == idle_decision::spin);
  CHECK(alone.next(64).what == idle_decision::yield);
  CHECK(alone.next(80).what == idle_decision::park_for);
  CHECK(alone.next(80).ns == 10'000);
  CHECK(alone.next(81).ns == 20'000);
  CHECK(alone.next(500).ns == 1'000'000);
  CHECK(crowded.next(0).what == idle_decision::yield);
  CHECK(crowded.next(15).what == idle_decision::yield);
  CHECK(crowded.next(16).what == idle_decision::park_for);
  CHECK(crowded.next(16).ns == 512 * 10'000ull);
  CHECK(crowded.next(500).ns == 512 * 1'000'000ull);
}

TEST_CASE("a park too long to double is capped, not wrapped around") {
  idle_config c;
  c.min_park_ns = c.max_park_ns = std::uint64_t(1) << 62;
  const idle_strategy s(c, 1024);
  CHECK(s.next(1000).ns == UINT64_MAX);
}

TEST_CASE("sleep stretches its park by the crowd, and busy-spin keeps spinning as asked") {
  idle_config c;
  c.strategy = "sleep";
  CHECK(idle_strategy(c, 1).next(0).ns == 50'000);
  CHECK(idle_strategy(c, 4).next(0).ns == 200'000);
  c.strategy = "busy-spin";
  CHECK(idle_strategy(c, 512).next(1000).what == idle_decision::spin);
}

TEST_CASE("the crowded warning names the strategy and what it does") {
  idle_config c;
  CHECK(crowded_behavior(c, 512) ==
        "idle strategy backoff skips its spins and parks for 5.12 ms to 512 ms (x512, the workers per hardware thread)");
  c.strategy = "busy-spin";
  CHECK(crowded_behavior(c, 2).find("idle strategy busy-spin keeps idle workers on the CPUs") == 0);
}

// Its own label, not "concurrency": the ThreadSanitizer stage leaves it out, since TSan makes each of
// the 1024 thread starts costly and the races it looks for are those the few-worker cases run into.
TEST_CASE("1024 workers (the most a scenario may ask for) on forward, hops=10, end with the verdict OK under the "
          "default idle strategy" *
          doctest::test_suite("crowd") * doctest::timeout(120)) {
  scenario s;  // forward, stealing, idle backoff: the defaults
  s.workload_params = {{"hops", std::int64_t(10)}};
  s.sched.workers = 1024;
  REQUIRE(s.sched.idle.strategy == "backoff");
  MESSAGE("hardware threads: " << hardware_threads());
  const run_result r = run_on_threads(s);
  CHECK(r.ok());
  CHECK(r.messages == 200 * 11);
}

TEST_CASE("a worker that ran no turn was never busy (simulated: exact)" * doctest::test_suite("sim")) {
  scenario s;
  s.workload = "pingpong";  // one ball: a single worker has work at a time
  s.workload_params = {{"bounces", std::int64_t(2000)}};
  s.sched.workers = 4;
  sim_options o;
  o.cores = 4;
  const sim_result r = simulate(s, o);
  REQUIRE(r.ok());
  unsigned without_turns = 0;
  for (const auto& w : r.run.per_worker) {
    if (w.turns != 0) continue;
    ++without_turns;
    CHECK(w.busy_ns == 0);
    CHECK(w.idle_ns > 0);
  }
  CHECK(without_turns > 0);
}

TEST_CASE("a platform that skipped timing its busy loop times it at its first burn, and then burns what it is asked") {
  thread_platform plat(false);
  plat.burn_ns(1);  // times the loop: CPU time that the burn below must not hide behind
  const auto cpu_ns = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
  };
  const double before = cpu_ns();
  plat.burn_ns(2'000'000);
  CHECK(cpu_ns() - before >= 0.95 * 2e6);  // CPU time: a host that takes the CPU away only adds
}

