// The simulator is deterministic: the same scenario, seed and machine give bit-identical results and event hashes.
#include <doctest/doctest.h>

#include <string>

#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {
scenario forward_small(const std::string& policy, const std::string& idle) {
  scenario s;
  s.name = "sim-determinism";
  s.workload = "forward";
  s.workload_params = {{"actors", std::int64_t(100)}, {"tokens", std::int64_t(20)}, {"hops", std::int64_t(200)}};
  s.sched.policy = policy;
  s.sched.idle.strategy = idle;
  s.sched.workers = 4;
  s.sched.checks = true;
  return s;
}

void require_same(const sim_result& a, const sim_result& b) {
  auto d = differences(a, b);
  std::string all;
  for (auto& x : d) all += x + "; ";
  CAPTURE(all);
  CHECK(d.empty());
}
}  // namespace

TEST_CASE("a simulation run twice gives the same result and event hash" * doctest::timeout(300)) {
  for (std::string policy : {"stealing", "shared-queue"})
    for (std::string idle : {"backoff", "park", "busy-spin"}) {
      CAPTURE(policy);
      CAPTURE(idle);
      scenario s = forward_small(policy, idle);
      sim_options o;
      o.cores = 4;
      sim_result a = simulate(s, o), b = simulate(s, o);
      REQUIRE(a.ok());
      CHECK(a.run.backend == "sim");
      CHECK(a.event_hash != 0);
      CHECK(a.sim_s > 0);
      require_same(a, b);
    }
}

TEST_CASE("the result does not depend on SimGrid's context factory" * doctest::timeout(300)) {
  scenario s = forward_small("stealing", "backoff");
  sim_options o;
  o.cores = 3;
  o.context_factory = "raw";
  sim_result raw = simulate(s, o);
  REQUIRE(raw.ok());
  for (std::string f : {"boost", "ucontext"}) {
    CAPTURE(f);
    o.context_factory = f;
    sim_result other = simulate(s, o);
    CHECK(other.context_factory == f);
    require_same(raw, other);
  }
}

TEST_CASE("fine interleaving is deterministic too, and still correct" * doctest::timeout(300)) {
  scenario s = forward_small("stealing", "park");
  s.workload_params["hops"] = std::int64_t(50);
  sim_options o;
  o.cores = 4;
  o.interleave = "fine";
  sim_result a = simulate(s, o), b = simulate(s, o);
  REQUIRE(a.ok());
  require_same(a, b);
  o.interleave = "coarse";
  sim_result c = simulate(s, o);
  CHECK(c.ok());
  CHECK(c.flushes < a.flushes);  // coarse yields far less often
}

TEST_CASE("a different seed gives a different event hash" * doctest::timeout(120)) {
  scenario s = forward_small("stealing", "backoff");
  sim_options o;
  o.cores = 4;
  sim_result a = simulate(s, o);
  s.seed = 2;
  sim_result b = simulate(s, o);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.event_hash != b.event_hash);
}

TEST_CASE("a run that outlives the simulated time limit is reported as failed, not hung or crashed" * doctest::timeout(120)) {
  for (std::string idle : {"park", "busy-spin"}) {
    CAPTURE(idle);
    scenario s = forward_small("stealing", idle);
    sim_options o;
    o.cores = 4;
    o.time_limit_s = 1e-5;  // far too short for the run
    sim_result r = simulate(s, o);
    CHECK(r.aborted);
    CHECK_FALSE(r.ok());
    REQUIRE(!r.run.errors.empty());
    CHECK(r.run.errors.front().find("simulated time limit") != std::string::npos);
    sim_result again = simulate(s, o);
    require_same(r, again);
  }
}

TEST_CASE("a simulation that reports its progress gives the result of one that reports to nobody" * doctest::timeout(300)) {
  // A simulation process reports to its parent at every 64th advance of simulated time (the
  // progress channel, sim/run_sim.cpp); one run in this process reports nowhere. Reading the
  // figures must not perturb the run: a report that read a simulated atomic would charge it.
  scenario s = forward_small("stealing", "backoff");
  s.workload_params["hops"] = std::int64_t(2000);  // 40 k messages: hundreds of reports
  sim_options o;
  o.cores = 4;
  running_simulation r = start_simulation(s, o);  // before this process has an engine of its own
  while (!read_available(r)) {
  }
  const sim_progress last = progress_of(r);  // the child has ended; its page holds its last report
  const sim_result reported = finish_simulation(r);
  REQUIRE(reported.ok());
  CHECK(last.expected_messages == reported.run.expected_messages);
  CHECK(last.messages > 0);
  CHECK(last.messages <= reported.run.messages);
  CHECK(last.sim_s > 0);
  CHECK(last.sim_s <= reported.sim_s * 1.001 + 1e-6);
  CHECK(last.recorded_turns == 0);  // not a replay
  const sim_result silent = simulate_in_this_process(s, o);
  require_same(reported, silent);
}

TEST_SUITE_END();
