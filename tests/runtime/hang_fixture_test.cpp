// Hang fixtures: a run that hangs on purpose must fail within its deadline and print the state of the run.
//
// The first case is MEANT to fail: ctest runs it alone and passes only if the process
// ended on the deadline with the hang report (tests/CMakeLists.txt: deadline_reports_a_hung_run).
// The second, also meant to fail, outlives its deadline inside a simulation child process:
// the report must name that process and say what the kernel has it doing, and kill it.
// The third checks the simulator's equivalent in-process: the all-parked check, which fails
// the run when every worker waits with no timeout (before the simulated time limit would).
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "forgetful_policy.hpp"
#include "models/scheduler.hpp"
#include "run/live_runs.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/run_sim.hpp"
#include "sim/machine_model.hpp"
#include "sim/sim_platform.hpp"

using namespace twinsched;

namespace {
std::unique_ptr<workload> pingpong(std::uint64_t pairs) {
  const workload_info& info = *find_workload("pingpong");
  return info.make(with_defaults(info, {{"pairs", std::int64_t(pairs)}, {"bounces", std::int64_t(100)}}), 1);
}
scheduler_config parked(std::uint32_t workers) {
  scheduler_config c;
  c.policy = "forgetful";
  c.workers = workers;
  c.idle.strategy = "park";
  return c;
}
}  // namespace

TEST_CASE("FIXTURE, fails on purpose: a hung run on threads ends at its deadline with the state printed" *
          doctest::timeout(2)) {
  thread_platform plat;
  auto w = pingpong(2);
  scheduler<thread_platform, testing::forgetful_policy<thread_platform>> sched(plat, parked(3), 1);
  live_runs::registration live([&] { return sched.state_report(); });
  sched.run(*w);  // never returns: the deadline ends the process
  FAIL("the forgetful policy's run ended; the fixture no longer hangs");
}

TEST_CASE("CHILD_FIXTURE, fails on purpose: a simulation process still running at the deadline is reported and killed" *
          doctest::timeout(1)) {
  scenario s;  // ten million messages: minutes of simulation, far past the deadline
  s.name = "outlives-its-deadline";
  s.workload = "forward";
  s.workload_params = {{"actors", std::int64_t(64)}, {"tokens", std::int64_t(64)}, {"hops", std::int64_t(160000)}};
  s.sched.policy = "stealing";
  s.sched.workers = 4;
  sim_options o;
  o.cores = 4;
  simulate(s, o);  // the deadline ends the process first
  FAIL("a ten-million-message simulation finished within a second");
}

TEST_CASE("a hung simulated run fails the moment every worker is parked for good, with the state in its error") {
  sim_config sc;
  sc.cores = 3;
  sc.time_limit_s = 5;
  sim_platform plat(load_machine("default"), sc);
  auto w = pingpong(2);
  plat.run([&] {
    scheduler<sim_platform, testing::forgetful_policy<sim_platform>> sched(plat, parked(3), 1);
    plat.set_state_report([&] { return sched.state_report(); });
    sched.run(*w);
    plat.set_state_report({});
  });
  REQUIRE(plat.stats().aborted);
  REQUIRE(plat.stats().errors.size() == 1);
  const std::string& e = plat.stats().errors[0];
  CAPTURE(e);
  // the all-parked check (sim/cost_model.hpp), long before the time limit of 5 s
  CHECK(e.find("every worker (3) is parked with no timeout and the run is not over") != std::string::npos);
  CHECK(plat.stats().sim_ns < 1e9);
  for (const char* w0 : {"worker 0: parked, no timeout", "worker 1: parked, no timeout", "worker 2: parked, no timeout"})
    CHECK(e.find(w0) != std::string::npos);
  CHECK(e.find("done no") != std::string::npos);
  CHECK(e.find("mailboxes: 2 of 4 actors have messages waiting") != std::string::npos);  // each pair's forgotten receiver
  CHECK(e.find("1 message waiting") != std::string::npos);
}
