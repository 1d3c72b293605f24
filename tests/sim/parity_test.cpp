// Parity: the same scenarios on real threads and in simulation give the same logical results.
#include <doctest/doctest.h>

#include <string>

#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {
scenario small(const std::string& workload) {
  scenario s;
  s.name = "parity-" + workload;
  s.workload = workload;
  if (workload == "forward") s.workload_params = {{"actors", std::int64_t(64)}, {"tokens", std::int64_t(16)}, {"hops", std::int64_t(200)}};
  if (workload == "pingpong") s.workload_params = {{"pairs", std::int64_t(3)}, {"bounces", std::int64_t(500)}};
  if (workload == "pi") s.workload_params = {{"jobs", std::int64_t(24)}, {"terms", std::int64_t(5000)}, {"workers", std::int64_t(4)}};
  if (workload == "pool")  // a group of equal actors: the workload donation needs
    s.workload_params = {{"members", std::int64_t(4)}, {"bursts", std::int64_t(2)}, {"burst_size", std::int64_t(60)},
                         {"cost_ns", std::int64_t(500)}, {"slow_every", std::int64_t(4)}, {"slow_factor", std::int64_t(4)}};
  s.sched.checks = true;
  s.sched.idle.min_park_ns = 1000;
  s.sched.idle.max_park_ns = 50'000;
  s.sched.idle.sleep_ns = 20'000;
  return s;
}
}  // namespace

TEST_CASE("every policy x idle strategy x workload gives the same logical result on threads and in simulation" *
          doctest::timeout(900)) {
  unsigned compared = 0, refused = 0;
  for (const auto& policy : policy_names())
    for (const auto& idle : idle_names())
      for (std::string wl : {"forward", "pingpong", "pi", "pool"}) {
        REQUIRE(find_workload(wl));
        scenario s = small(wl);
        s.sched.policy = policy;
        s.sched.idle.strategy = idle;
        s.sched.workers = 3;
        CAPTURE(policy);
        CAPTURE(idle);
        CAPTURE(wl);
        run_result real;
        try {
          real = run_on_threads(s);
        } catch (const config_error& e) {
          // the one refusal expected: donation on a workload without a group of equals
          CHECK(policy == "donation");
          CHECK(std::string(e.what()).find("group of equal actors") != std::string::npos);
          ++refused;
          continue;
        }
        ++compared;
        sim_options o;
        o.cores = 2;  // three workers on two cores: sharing cores is part of the model
        sim_result sim = simulate(s, o);
        std::string errors;
        for (auto& e : sim.run.errors) errors += e + "; ";
        CAPTURE(errors);
        CHECK(real.ok());
        CHECK(sim.ok());
        CHECK(sim.run.backend == "sim");
        CHECK(sim.run.messages == real.messages);
        CHECK(sim.run.expected_messages == real.expected_messages);
        CHECK(sim.run.checksum == real.checksum);
        CHECK(sim.run.reference == real.reference);
        CHECK(sim.run.dead_letters == real.dead_letters);
        CHECK(sim.run.leftover == 0);
        CHECK(sim.run.workload_ok == real.workload_ok);
        CHECK(sim.run.detail == real.detail);
      }
  // 6 policies x 6 idle strategies x 4 workloads = 144 pairs of runs; donation refuses
  // forward and pingpong (no group of equals) under each idle strategy: 12. Exact counts,
  // so that a matrix emptied by a renamed policy or an unexpected refusal fails.
  CHECK(compared == 132);
  CHECK(refused == 12);
}

TEST_CASE("a simulation on one core with one worker matches the real single-threaded run exactly" * doctest::timeout(120)) {
  unsigned compared = 0, refused = 0;
  for (const auto& policy : policy_names()) {
    scenario s = small("forward");
    s.sched.policy = policy;
    s.sched.workers = 1;
    CAPTURE(policy);
    run_result real;
    try {
      real = run_on_threads(s);
    } catch (const config_error&) {
      CHECK(policy == "donation");  // forward has no group of equals
      ++refused;
      continue;
    }
    ++compared;
    sim_options o;
    o.cores = 1;
    sim_result sim = simulate(s, o);
    REQUIRE(sim.ok());
    CHECK(sim.run.messages == real.messages);
    CHECK(sim.run.checksum == real.checksum);
    // One worker: the order of turns is the same on both platforms.
    REQUIRE(sim.run.per_worker.size() == real.per_worker.size());
    CHECK(sim.run.per_worker[0].turns == real.per_worker[0].turns);
  }
  CHECK(compared == 5);  // every policy but donation
  CHECK(refused == 1);
}

TEST_SUITE_END();
