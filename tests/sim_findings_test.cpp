// The seeds' findings, reproduced on the simulator: deterministic, so these assertions cannot flake.
//
// Findings that need policies not landed yet (2: pi with distribution vs adaptive; 3:
// fanout-idle with distribution/sharing vs shared queue; 4: pool with donation vs stealing)
// get their own TEST_CASEs here when those policies and workloads land.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"

using namespace twinsched;

namespace {
scenario load(const std::string& name) { return load_scenario_file(std::string(TWINSCHED_SOURCE_DIR) + "/scenarios/" + name); }
}  // namespace

TEST_CASE("finding 1: on forward the shared queue stops scaling while stealing scales, 1 to 16 modeled cores" *
          doctest::timeout(600)) {
  scenario base = load("sim_shared_vs_stealing.toml");
  std::map<std::string, std::map<unsigned, double>> rate;  // policy -> cores -> simulated msgs/s
  const unsigned cores[] = {1, 2, 4, 8, 16};
  for (std::string policy : {"shared-queue", "stealing"})
    for (unsigned n : cores) {
      scenario s = base;
      s.sched.policy = policy;
      s.sched.workers = n;
      sim_options o;
      o.cores = n;
      sim_result r = simulate(s, o);
      CAPTURE(policy);
      CAPTURE(n);
      REQUIRE(r.ok());
      rate[policy][n] = r.run.msgs_per_s();
      MESSAGE(policy << " on " << n << " cores: " << r.run.msgs_per_s() / 1e6 << " M simulated msgs/s");
    }
  auto& sq = rate["shared-queue"];
  auto& st = rate["stealing"];
  for (unsigned k = 1; k < 5; ++k) {
    CAPTURE(cores[k]);
    CHECK(sq[cores[k]] <= sq[cores[k - 1]] * 1.05);  // flat or falling
  }
  CHECK(sq[16] < sq[1]);
  for (unsigned k = 2; k < 5; ++k) {
    CAPTURE(cores[k]);
    CHECK(st[cores[k]] > st[cores[k - 1]]);  // rising from 2 cores on
  }
  CHECK(st[16] > 1.5 * st[1]);
  CHECK(st[16] > 4 * sq[16]);
}

TEST_CASE("finding 5: with more workers than cores, busy-spin loses to park" * doctest::timeout(300)) {
  scenario s = load("sim_spin_vs_park.toml");
  sim_options o;
  o.cores = 2;
  REQUIRE(s.sched.workers == 8);
  s.sched.idle.strategy = "busy-spin";
  sim_result spin = simulate(s, o);
  s.sched.idle.strategy = "park";
  sim_result park = simulate(s, o);
  REQUIRE(spin.ok());
  REQUIRE(park.ok());
  MESSAGE("busy-spin " << spin.sim_s * 1e3 << " ms, park " << park.sim_s * 1e3 << " ms (simulated)");
  CHECK(park.sim_s * 1.5 < spin.sim_s);
  // With one worker per core spinning costs nothing extra: the gap comes from sharing cores.
  s.sched.workers = 2;
  s.sched.idle.strategy = "busy-spin";
  sim_result spin2 = simulate(s, o);
  s.sched.idle.strategy = "park";
  sim_result park2 = simulate(s, o);
  REQUIRE(spin2.ok());
  REQUIRE(park2.ok());
  CHECK(spin2.sim_s <= park2.sim_s * 1.1);
}
