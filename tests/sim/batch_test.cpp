// A batch's simulations (explore's) are those fresh processes make: the child of a process that prepared SimGrid's engine once simulates exactly what a child that initialized it itself does.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"
#include "pingpong_sharing_park.hpp"

TEST_SUITE_BEGIN("sim");

using namespace twinsched;

namespace {
sim_options with_seed(const sim_options& base, std::uint64_t seed) {
  sim_options o = base;
  o.schedule.strategy = "random";
  o.schedule.p = 0.01;
  o.schedule.seed = seed;
  return o;
}

void require_same(const sim_result& a, const sim_result& b) {
  std::string all;
  for (auto& x : differences(a, b)) all += x + "; ";
  CAPTURE(all);
  CHECK(all.empty());
}
}  // namespace

// Each case is a process of its own (tests/CMakeLists.txt): until the batch below, this one
// holds no engine, so every simulate() child initializes SimGrid itself.
TEST_CASE("a batch's runs equal fresh processes' runs, event hash and preemptions included" * doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("batch");
  sim_options base;
  base.cores = 3;
  base.time_limit_s = 10;
  base.max_points = 10'000'000;
  std::vector<sim_options> runs{base};
  for (std::uint64_t seed = 0; seed < 4; ++seed) runs.push_back(with_seed(base, seed));
  std::vector<sim_result> fresh;
  for (const auto& o : runs) fresh.push_back(simulate(s, o));
  std::size_t preempted = 0;
  for (const auto& r : fresh) {
    REQUIRE(r.ok());
    preempted += r.preemptions.size();
  }
  CHECK(preempted > 0);  // the schedules perturbed the runs: the batch must reproduce that too

  const sim_batch batch(s, base);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(i);
    require_same(batch.simulate(runs[i]), fresh[i]);
    CHECK(batch.simulate(runs[i]).preemptions.size() == fresh[i].preemptions.size());
  }
  // and started the way explore starts them, several at once
  std::vector<running_simulation> started;
  for (const auto& o : runs) started.push_back(batch.start(o));
  for (std::size_t i = 0; i < runs.size(); ++i) require_same(finish_simulation(started[i]), fresh[i]);
}

TEST_CASE("a batch runs its own machine, cores and context factory only, and the prepared engine keeps them") {
  const scenario s = test::pingpong_sharing_park("batch");
  sim_options base;
  base.cores = 3;
  const sim_batch batch(s, base);
  sim_options other = base;
  other.context_factory = "boost";
  CHECK_THROWS_AS((void)batch.start(other), std::logic_error);
  other = base;
  other.machine = "no-such-machine";
  CHECK_THROWS_AS((void)batch.start(other), std::logic_error);
  other = base;
  other.cores = 4;
  CHECK_THROWS_AS((void)batch.start(other), std::logic_error);
  const machine_model m = load_machine("default");
  sim_config c;
  c.cores = 3;
  CHECK_NOTHROW(sim_platform::prepare(m, c));
  c.context_factory = "boost";
  CHECK_THROWS_AS(sim_platform::prepare(m, c), std::logic_error);
  c.context_factory = "raw";
  c.cores = 4;
  CHECK_THROWS_AS(sim_platform::prepare(m, c), std::logic_error);
  sim_options bad = base;
  bad.interleave = "sometimes";
  CHECK_THROWS_AS((void)batch.start(bad), config_error);
}

TEST_SUITE_END();
