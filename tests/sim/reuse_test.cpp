// One process simulates several runs in a row, each the run a fresh process makes: event hash, preemptions and every counter.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"
#include "pingpong_sharing_park.hpp"

// The aborted run below ends with S4U actors halted in this process, whose stacks
// LeakSanitizer cannot walk at exit (it crashes, as for runtime/hang_fixture): no leak check
// in this executable. Read by ASan only; unused in other builds.
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }

TEST_SUITE_BEGIN("sim");

using namespace twinsched;

TEST_CASE("runs in a row in one process equal fresh processes' runs" * doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("reuse");
  sim_options base;
  base.cores = 3;
  base.time_limit_s = 10;
  base.max_points = 10'000'000;
  std::vector<sim_options> runs{base};
  for (std::uint64_t seed = 0; seed < 6; ++seed) {
    sim_options o = base;
    o.schedule.strategy = "random";
    o.schedule.p = 0.01;
    o.schedule.seed = seed;
    runs.push_back(o);
  }
  std::vector<sim_result> fresh;
  for (const auto& o : runs) fresh.push_back(simulate(s, o));
  for (int round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < runs.size(); ++i) {
      CAPTURE(round);
      CAPTURE(i);
      const sim_result r = simulate_in_this_process(s, runs[i]);
      std::string all;
      for (auto& x : differences(r, fresh[i])) all += x + "; ";
      CAPTURE(all);
      CHECK(all.empty());
      CHECK(r.preemptions.size() == fresh[i].preemptions.size());
    }
}

TEST_CASE("after a run that aborted, the process simulates no other run" * doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("reuse");
  sim_options o;
  o.cores = 3;
  CHECK(sim_platform::can_simulate_again());
  o.time_limit_s = 1e-6;  // the run hits the limit: aborted, its workers halted in the engine
  CHECK(simulate_in_this_process(s, o).aborted);
  CHECK_FALSE(sim_platform::can_simulate_again());
  o.time_limit_s = 10;
  CHECK_THROWS_AS((void)simulate_in_this_process(s, o), std::logic_error);
}

TEST_SUITE_END();
