// The seeds' findings, reproduced on the simulator: deterministic, so these assertions cannot flake.
//
// One TEST_CASE per finding the seeds report, each with its scenario file scenarios/sim_*.toml
// (whose comments say what it shows and why its parameters are what they are). The measured
// figures are printed with MESSAGE, so `test_sim_findings -s` shows them.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {
scenario load(const std::string& name) { return load_scenario_file(std::string(TWINSCHED_SOURCE_DIR) + "/scenarios/" + name); }

std::int64_t int_param(const scenario& s, const std::string& key) { return std::get<std::int64_t>(s.workload_params.at(key)); }

/// Simulated seconds from the workers' start until the thread count first reached its peak
/// (run_result::scale_up_s starts at the first growth instead; this includes the wait for it).
double time_to_peak(const run_result& r) {
  for (auto& [t, n] : r.thread_timeline)
    if (n == r.peak_workers) return t;
  return 0;
}
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
    CHECK(sq[cores[k]] < 0.6 * sq[1]);  // every core count below one core's rate: the lock is the limit
  }
  CHECK(sq[16] <= sq[2] * 1.05);  // and 16 cores gain nothing over 2
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

// The Kontraktor post's Pi table (seed 002), thread_max 1..8, autoscale from one thread vs
// dedicated assignment, ms: 1527/1520, 1273/804, 718/571, 630/459, 521/457, 576/534, 619/615,
// 668/659. Its shape: autoscale gets faster from 1 thread to several, is never more than
// 1.6x dedicated (worst 1.58x at 2 threads), and is within 2% of it at 7-8 threads.
TEST_CASE("finding 2: on the stock pi, adaptive from one thread stays within 1.6x of dedicated assignment at "
          "1 to 8 threads, as in the Kontraktor post's table" *
          doctest::timeout(300)) {
  scenario base = load("pi.toml");  // as shipped: 8 equal worker actors, 100 jobs of 1 ms (simulated)
  REQUIRE(int_param(base, "workers") == 8);
  REQUIRE(int_param(base, "jobs") == 100);
  sim_options o;
  o.cores = 8;
  std::map<unsigned, double> dist, adapt;  // max threads -> simulated makespan (s)
  for (unsigned n = 1; n <= 8; ++n) {
    scenario d = base;
    d.sched.policy = "distribution";  // dedicated assignment: actors dealt round robin to n threads
    d.sched.workers = n;
    scenario a = base;
    a.sched.policy = "adaptive";
    a.sched.workers = 1;  // starts from one thread...
    a.sched.min_workers = 1;
    a.sched.max_workers = n;  // ...and may grow to n
    // The post's N is 1000 messages, a sliver of its run; pi.toml's whole run is 201
    // messages, so the default 1000 never fires. 1, the least there is, is the closest
    // fraction (docs/KONTRAKTOR_PI.md, with the other values' rows).
    a.sched.overload_after = 1;
    sim_result rd = simulate(d, o), ra = simulate(a, o);
    CAPTURE(n);
    REQUIRE(rd.ok());
    REQUIRE(ra.ok());
    dist[n] = rd.sim_s;
    adapt[n] = ra.sim_s;
    MESSAGE(n << " threads on 8 cores: dedicated " << rd.sim_s * 1e3 << " ms, adaptive " << ra.sim_s * 1e3
              << " ms (" << ra.sim_s / rd.sim_s << "x), adaptive peaked at " << ra.run.peak_workers << " threads");
    // It grows to the maximum: the post's rule splits two equal actors sharing a thread (the
    // rule before it left one thread of 8 running two of pi's actors: a peak of 6, 2x at 8).
    CHECK(ra.run.peak_workers == n);
    // Never more than the post's 1.6x (measured: at most 1.15x, at 8 threads).
    CHECK(ra.sim_s <= 1.6 * rd.sim_s);
  }
  // From 1 thread to several it gets faster, as dedicated assignment does (measured: 100, 51,
  // 38, 26 ms; the post: 1527, 1273, 718, 630)...
  for (unsigned n = 2; n <= 4; ++n) {
    CAPTURE(n);
    CHECK(adapt[n] < 0.9 * adapt[n - 1]);
  }
  CHECK(adapt[4] * 2.4 < adapt[1]);  // the post: 2.4x from 1 to 4 threads
  // ...and close to it at 7 and 8 threads (measured: 0.96x and 1.15x; the post: within 2%).
  // At 8 the post's 2% is not reached: its dedicated run had stopped gaining at 5 threads
  // (457 ms, then 534-659), so its last threads had no core to gain from, while here 8
  // modeled cores are free and dedicated assignment runs 8 actors at once (13 ms), next to
  // which adaptive's 2 ms of growing (one overload per doubling) shows.
  for (unsigned n : {7u, 8u}) {
    CAPTURE(n);
    CHECK(adapt[n] <= 1.2 * dist[n]);
  }
}

TEST_CASE("finding 2b: on pi with 840 small actors, adaptive from one thread tracks dedicated assignment, behind it "
          "by its scale-up time" *
          doctest::timeout(300)) {
  scenario base = load("sim_pi_adaptive.toml");
  REQUIRE(base.sched.workers == 1);
  REQUIRE(base.sched.min_workers == 1);
  sim_options o;
  o.cores = 8;
  const unsigned threads[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16};
  std::map<unsigned, double> dist, adapt;  // max threads -> simulated makespan (s)
  for (unsigned n : threads) {
    scenario d = base;
    d.sched.policy = "distribution";
    d.sched.workers = n;
    d.sched.max_workers = 0;
    scenario a = base;
    a.sched.policy = "adaptive";
    a.sched.workers = 1;  // starts from one thread...
    a.sched.max_workers = n;  // ...and may grow to n
    sim_result rd = simulate(d, o), ra = simulate(a, o);
    CAPTURE(n);
    REQUIRE(rd.ok());
    REQUIRE(ra.ok());
    dist[n] = rd.sim_s;
    adapt[n] = ra.sim_s;
    const double peak_at = time_to_peak(ra.run);
    MESSAGE(n << " threads on 8 cores: distribution " << rd.sim_s * 1e3 << " ms, adaptive " << ra.sim_s * 1e3
              << " ms (+" << (ra.sim_s - rd.sim_s) * 1e3 << " ms), adaptive reached " << ra.run.peak_workers
              << " threads at " << peak_at * 1e3 << " ms");
    if (n > 8) continue;
    CHECK(ra.run.peak_workers == n);  // it does grow to the maximum
    // Behind dedicated assignment (which is balanced: 840 actors deal evenly to 1..8 threads)...
    CHECK(ra.sim_s >= rd.sim_s);
    // ...by no more than the time it took to scale up. Until adaptive runs all n threads it
    // lacks at most n-1 threads for at most `peak_at`; spread over n threads once it has
    // them, that delays it by peak_at * (n-1)/n if it rebalanced perfectly, and it comes
    // close (measured: the gap is 0.58-0.79 of peak_at). The 0.1% is adaptive's own
    // bookkeeping per message, which its 1-thread run (it cannot grow) measures: 8 us of 168 ms.
    CHECK(ra.sim_s <= rd.sim_s + peak_at + 0.001 * rd.sim_s);
  }
  // Both scale up to the core count (measured: distribution 8.0x, adaptive 6.8x at 8 threads)...
  CHECK(dist[8] * 5 < dist[1]);
  CHECK(adapt[8] * 5 < adapt[1]);
  // ...and not past it: 12 or 16 threads on 8 cores improve on 8 threads by less than 10%.
  // (12 is worse for distribution: worker i runs on core i mod 8, so cores 0-3 carry two
  // threads' actors each.)
  for (unsigned n : {12u, 16u}) {
    CAPTURE(n);
    CHECK(dist[n] > 0.9 * dist[8]);
    CHECK(adapt[n] > 0.9 * adapt[8]);
  }
}

TEST_CASE("finding 3: on fanout-idle at 16 modeled cores, distribution and sharing beat the shared queue" *
          doctest::timeout(300)) {
  scenario base = load("sim_fanout_idle.toml");
  REQUIRE(base.sched.workers == 16);
  sim_options o;
  o.cores = 16;
  // Who wins each lock decides the order of everything after it, so one seed's makespan is one
  // draw: sharing, at 2 us a message, lands near 3.4 ms for most seeds and near 4.6 ms for one in
  // eight or so (a convoy on the hungry ring). The finding is about the policies, so each figure
  // is the median over five seeds.
  std::map<std::int64_t, std::map<std::string, double>> rate;  // cost_ns -> policy -> simulated msgs/s
  for (std::int64_t cost : {int_param(base, "cost_ns"), std::int64_t(0)})
    for (std::string policy : {"shared-queue", "distribution", "sharing"}) {
      std::vector<double> runs;
      for (std::uint64_t seed : {base.seed, std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), std::uint64_t(4)}) {
        scenario s = base;
        s.seed = seed;
        s.sched.policy = policy;
        s.workload_params["cost_ns"] = cost;
        sim_result r = simulate(s, o);
        CAPTURE(policy);
        CAPTURE(cost);
        CAPTURE(seed);
        REQUIRE(r.ok());
        runs.push_back(r.run.msgs_per_s());
      }
      std::nth_element(runs.begin(), runs.begin() + 2, runs.end());
      rate[cost][policy] = runs[2];
      MESSAGE(policy << ", cost_ns " << cost << ": " << runs[2] / 1e6 << " M simulated msgs/s, median of 5 seeds");
    }
  auto& busy = rate[int_param(base, "cost_ns")];  // the scenario's 2 us of work per message
  CHECK(busy["distribution"] > 1.2 * busy["shared-queue"]);  // measured 1.21x: the median of 4.71 against 3.90 ms
  CHECK(busy["sharing"] > 1.2 * busy["shared-queue"]);       // measured 1.38x
  // With no work per message distribution wins by more (measured 3.0x). Sharing does not:
  // the 12 non-producing workers are idle, so hungry, nearly all the time, and most messages
  // (measured: 17,096 of 20,316, against 2,067 at 2 us) go to a hungry dispatcher through
  // the hungry ring's one mutex, which that dispatcher takes again to re-list itself after
  // its one message: a global lock twice per message, like the shared queue's push and pop,
  // plus the hand-off. It runs slower than the shared queue (measured 0.68x); printed above,
  // not asserted (scenarios/sim_fanout_idle.toml).
  CHECK(rate[0]["distribution"] > 2 * rate[0]["shared-queue"]);
}

TEST_CASE("finding 4: on pool with one slow member, donation finishes the bursts sooner than stealing" *
          doctest::timeout(300)) {
  scenario s = load("sim_pool_donation.toml");
  REQUIRE(s.sched.workers == 8);
  sim_options o;
  o.cores = 8;
  s.sched.policy = "stealing";
  sim_result steal = simulate(s, o);
  s.sched.policy = "donation";
  sim_result donate = simulate(s, o);
  REQUIRE(steal.ok());
  REQUIRE(donate.ok());
  std::uint64_t steal_donations = 0, donations = 0;
  for (auto& w : steal.run.per_worker) steal_donations += w.donations;
  for (auto& w : donate.run.per_worker) donations += w.donations;
  // The slow member's own jobs, one after another: stealing moves it whole, so no burst can
  // end before the slow member has run its share of it.
  const double slow_serial_s = double(int_param(s, "bursts")) *
                               double(int_param(s, "burst_size") / int_param(s, "members")) *
                               double(int_param(s, "cost_ns") * int_param(s, "slow_factor")) * 1e-9;
  MESSAGE("stealing " << steal.sim_s * 1e3 << " ms, donation " << donate.sim_s * 1e3 << " ms (" << donations
                      << " messages donated); the slow member's serial work " << slow_serial_s * 1e3 << " ms");
  CHECK(steal_donations == 0);
  CHECK(donations > 0);
  CHECK(steal.sim_s >= slow_serial_s);
  CHECK(donate.sim_s * 2 < slow_serial_s);  // measured 4.3x under it
  CHECK(donate.sim_s * 2 < steal.sim_s);
}

TEST_SUITE_END();
