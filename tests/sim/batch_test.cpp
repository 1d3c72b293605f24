// One process simulates run after run (a batch's runners do), each the run a fresh process makes: event hash, preemptions and every counter, also after an aborted run or a killed runner.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"
#include "in_child.hpp"
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

/// Waits (up to 30 s) until process `pid` has ended and waits to be reaped.
bool becomes_zombie(int pid) {
  for (int i = 0; i < 3000; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (close != std::string::npos && close + 2 < line.size() && line[close + 2] == 'Z') return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

void require_same(const sim_result& a, const sim_result& b) {
  std::string all;
  for (auto& x : differences(a, b)) all += x + "; ";
  CAPTURE(all);
  CHECK(all.empty());
}


sim_options base_options() {
  sim_options base;
  base.cores = 3;
  base.time_limit_s = 10;
  base.max_points = 10'000'000;
  return base;
}

/// The unperturbed run and `seeds` random schedules.
std::vector<sim_options> runs_of(const sim_options& base, std::uint64_t seeds) {
  std::vector<sim_options> runs{base};
  for (std::uint64_t seed = 0; seed < seeds; ++seed) runs.push_back(with_seed(base, seed));
  return runs;
}
}  // namespace

// Each case is a process of its own (tests/CMakeLists.txt): until the batch below, this one
// holds no engine, so every simulate() child initializes SimGrid itself.
TEST_CASE("a batch's runs equal fresh processes' runs, event hash and preemptions included" * doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("batch");
  const sim_options base = base_options();
  const std::vector<sim_options> runs = runs_of(base, 4);
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
  // one runner process simulated them all, one after another
  CHECK(batch.runners_forked() == 1);
  // and started the way explore starts them, several at once: one runner each
  std::vector<running_simulation> started;
  for (const auto& o : runs) started.push_back(batch.start(o));
  for (std::size_t i = 0; i < runs.size(); ++i) require_same(finish_simulation(started[i]), fresh[i]);
  CHECK(batch.runners_forked() == runs.size());
}

TEST_CASE("a batch's runner that aborts or dies is replaced, and the runs after it equal fresh processes' runs" *
          doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("batch");
  const sim_options base = base_options();
  const sim_options seeded = with_seed(base, 3);
  const sim_result fresh = simulate(s, seeded);
  REQUIRE(fresh.ok());

  const sim_batch batch(s, base);
  require_same(batch.simulate(seeded), fresh);
  sim_options cut = base;
  cut.time_limit_s = 1e-6;  // the run hits the limit: aborted, its workers halted in the engine
  const sim_result aborted = batch.simulate(cut);
  CHECK(aborted.aborted);
  require_same(batch.simulate(seeded), fresh);
  CHECK(batch.runners_forked() == 2);  // the aborted run's runner could not go on

  // killed while idle, between two runs: the next run goes to a new runner
  running_simulation idle = batch.start(seeded);
  const int idle_pid = idle.pid;
  require_same(finish_simulation(idle), fresh);
  REQUIRE(::kill(idle_pid, SIGKILL) == 0);
  REQUIRE(becomes_zombie(idle_pid));  // its socket is closed by then
  require_same(batch.simulate(seeded), fresh);
  CHECK(batch.runners_forked() == 3);

  // killed in the middle of a run (seconds long, the kill sent at once): that run fails as a
  // fresh process's would, and the next one goes to a new runner
  scenario longer = s;
  longer.workload_params["bounces"] = std::int64_t(300'000);
  const sim_batch long_batch(longer, base);
  running_simulation killed = long_batch.start(base);
  REQUIRE(::kill(killed.pid, SIGKILL) == 0);
  std::string why;
  try {
    (void)finish_simulation(killed);
  } catch (const std::runtime_error& e) {
    why = e.what();
  }
  CHECK(why.find("signal 9") != std::string::npos);
  sim_options shorter = base;
  shorter.max_points = 1000;  // stops early (livelock budget): a run, not a long one
  CHECK_FALSE(long_batch.simulate(shorter).ok());
  CHECK(long_batch.runners_forked() == 2);
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

TEST_CASE("a runner's runs with timers, a service actor and a trace equal fresh processes' runs" * doctest::timeout(300)) {
  scenario s = load_scenario("open-light");  // timers: the runtime's service is an actor too
  s.workload_params["requests"] = std::int64_t(300);
  s.sched.workers = 2;
  const sim_options base = base_options();  // 3 cores, as every case here (one engine per process)
  std::vector<sim_options> runs = runs_of(base, 2);
  const auto dir = std::filesystem::temp_directory_path() / ("twinsched-batch-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  sim_options traced = with_seed(base, 5);
  traced.trace_path = (dir / "fresh.tst").string();
  runs.push_back(traced);
  runs.push_back(with_seed(base, 6));  // after the traced one
  std::vector<sim_result> fresh;
  for (const auto& o : runs) fresh.push_back(simulate(s, o));
  REQUIRE(fresh.front().ok());
  REQUIRE(fresh.front().run.timers > 0);
  const sim_batch batch(s, base);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CAPTURE(i);
    sim_options o = runs[i];
    if (!o.trace_path.empty()) o.trace_path = (dir / "batch.tst").string();
    require_same(batch.simulate(o), fresh[i]);
  }
  CHECK(batch.runners_forked() == 1);
  CHECK(std::filesystem::file_size(dir / "batch.tst") == std::filesystem::file_size(dir / "fresh.tst"));
  std::filesystem::remove_all(dir);
}

// A sweep's batches: several scenarios each, for two core counts in one process (each runner
// makes its own engine), and one batch ending while the other's runner lives (which must not
// hold the ended batch's sockets open: its destructor would wait for ever).
TEST_CASE("batches of several scenarios, for two core counts in one process, each end with their runners" * doctest::timeout(120)) {
  scenario a = test::pingpong_sharing_park("several");
  scenario b = a;
  b.sched.policy = "stealing";
  b.seed = 7;
  sim_options three = base_options(), two = base_options();
  two.cores = 2;
  a.sched.workers = b.sched.workers = 2;
  const sim_result fresh_a3 = simulate(a, three), fresh_b3 = simulate(b, three), fresh_b2 = simulate(b, two);
  REQUIRE(fresh_a3.ok());
  REQUIRE(fresh_b3.ok());
  REQUIRE(fresh_b2.ok());
  CHECK(fresh_a3.event_hash != fresh_b3.event_hash);
  auto on_three = std::make_unique<sim_batch>(std::vector<const scenario*>{&a, &b}, three);
  const sim_batch on_two(std::vector<const scenario*>{&b}, two);
  require_same(on_three->simulate(three, 1), fresh_b3);
  require_same(on_two.simulate(two, 0), fresh_b2);  // its runner forked while on_three's lives
  require_same(on_three->simulate(three, 0), fresh_a3);
  require_same(on_three->simulate(three, 1), fresh_b3);
  CHECK(on_three->runners_forked() == 1);
  on_three.reset();  // its runner must read EOF now
  require_same(on_two.simulate(two, 0), fresh_b2);
  CHECK(on_two.runners_forked() == 1);
  CHECK_THROWS_AS((void)on_two.start(two, 1), std::out_of_range);
}

// The runners' engine reset, in this process: two rounds of seven runs in a row.
TEST_CASE("runs in a row in one process equal fresh processes' runs" * doctest::timeout(300)) {
  const scenario s = test::pingpong_sharing_park("reuse");
  const std::vector<sim_options> runs = runs_of(base_options(), 6);
  std::vector<sim_result> fresh;
  for (const auto& o : runs) fresh.push_back(simulate(s, o));
  for (int round = 0; round < 2; ++round)
    for (std::size_t i = 0; i < runs.size(); ++i) {
      CAPTURE(round);
      CAPTURE(i);
      const sim_result r = simulate_in_this_process(s, runs[i]);
      require_same(r, fresh[i]);
      CHECK(r.preemptions.size() == fresh[i].preemptions.size());
    }
}

TEST_CASE("after a run that aborted, the process simulates no other run" * doctest::timeout(300)) {
  // In a child of its own, which ends with _exit: the aborted run leaves S4U actors halted,
  // whose stacks LeakSanitizer cannot walk at exit (it crashes, as for runtime/hang_fixture).
  struct seen {
    bool fresh_may, aborted, may_after, refused;
  };
  const seen r = testing::in_child<seen>([](std::string&) {
    const scenario s = test::pingpong_sharing_park("reuse");
    sim_options o;
    o.cores = 3;
    seen v{};
    v.fresh_may = sim_platform::can_simulate_again();
    o.time_limit_s = 1e-6;  // the run hits the limit: aborted, its workers halted in the engine
    v.aborted = simulate_in_this_process(s, o).aborted;
    v.may_after = sim_platform::can_simulate_again();
    o.time_limit_s = 10;
    try {
      (void)simulate_in_this_process(s, o);
    } catch (const std::logic_error&) {
      v.refused = true;
    }
    return v;
  });
  CHECK(r.fresh_may);
  CHECK(r.aborted);
  CHECK_FALSE(r.may_after);
  CHECK(r.refused);
}

TEST_SUITE_END();
