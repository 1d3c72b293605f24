// Parity: the same scenarios on real threads and in simulation give the same logical results.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "models/registry.hpp"
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
/// The runs the registered policies' own checks (policy_info::check, e.g. donation without a
/// group of equals) refuse, out of `workloads` under each idle strategy: what the matrices expect.
unsigned refusals_declared(const std::vector<std::string>& workloads, std::uint32_t workers) {
  unsigned n = 0;
  for (const policy_entry& e : policy_catalog())
    for (const auto& wl : workloads) {
      scenario s = small(wl);
      s.sched.policy = e.name;
      s.sched.workers = workers;
      try {
        if (e.check) e.check(s);
      } catch (const config_error&) {
        ++n;
      }
    }
  return n;
}

bool refused_by_own_check(const scenario& s) {
  try {
    if (const policy_entry* e = find_policy(s.sched.policy); e && e->check) e->check(s);
  } catch (const config_error&) {
    return true;
  }
  return false;
}
}  // namespace

TEST_CASE("every policy x idle strategy x workload gives the same logical result on threads and in simulation" *
          doctest::timeout(900)) {
  const std::vector<std::string> workloads{"forward", "pingpong", "pi", "pool"};
  unsigned compared = 0, refused = 0;
  for (const auto& policy : policy_names())
    for (const auto& idle : idle_names())
      for (const std::string& wl : workloads) {
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
        } catch (const config_error&) {
          // the only refusals expected: a policy's own check (donation on a workload without a group of equals)
          CHECK(refused_by_own_check(s));
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
  // Every registered policy x idle strategy x workload is a pair of runs, but for the ones a
  // policy's own check refuses (stock: donation on forward and pingpong, no group of equals,
  // under each idle strategy). Exact counts, so that an unexpected refusal or a run that
  // never happened fails.
  const unsigned declared = refusals_declared(workloads, 3) * unsigned(idle_names().size());
  CHECK(compared + refused == policy_names().size() * idle_names().size() * workloads.size());
  CHECK(refused == declared);
  CHECK(compared > 0);
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
      CHECK(refused_by_own_check(s));  // donation: forward has no group of equals
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
  CHECK(refused == refusals_declared({"forward"}, 1));  // stock: donation
  CHECK(compared + refused == policy_names().size());
}

TEST_SUITE_END();
