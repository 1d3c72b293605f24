// Timers (context::send_after, models/timer_service.hpp), request latency, scheduling delay and CPU time, on both backends.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <type_traits>

#include "models/behavior.hpp"
#include "platform_harness.hpp"
#include "run_on.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

namespace {

/// Timer k reaches one receiver after (k + 1) x gap_us (or gap_us for all, with same_deadline;
/// or, chained, gap_us after the receiver set it), stamped on arrival. The receiver checks
/// that it came no earlier than its deadline and in deadline order, then burns (k + 1) x
/// cost_us and records the latency from the stamp. It keeps the verdict, as the workload
/// lives in the simulation's child process: result_ok and detail carry it back.
struct timers_workload final : workload {
  std::uint64_t n, gap_ns, cost_ns;
  bool same, chained, declared;
  std::uint64_t t0 = 0, received = 0, early = 0, disorder = 0, late_max = 0, burned = 0;
  std::string failed;

  struct receiver final : behavior {
    timers_workload& w;
    std::uint64_t set_at = 0;  // chained: when the pending timer was set
    explicit receiver(timers_workload& tw) : w(tw) {}
    void receive(context& ctx, const message& m) override {
      if (!w.declared) {  // a plain message: setting a timer must fail the actor
        ctx.send_after(ctx.self(), message{0, 0, 0}, 1000);
        return;
      }
      const std::uint64_t now = ctx.now_ns(), k = m.a;
      const std::uint64_t deadline = w.chained ? set_at + w.gap_ns : w.t0 + (w.same ? 1 : k + 1) * w.gap_ns;
      if (now < deadline) ++w.early;
      w.late_max = std::max(w.late_max, now > deadline ? now - deadline : 0);
      if (k != w.received) ++w.disorder;
      ++w.received;
      if (w.cost_ns) {
        ctx.burn_ns((k + 1) * w.cost_ns);
        w.burned += (k + 1) * w.cost_ns;
      }
      const std::uint64_t end = ctx.now_ns();
      ctx.record_latency(end > m.b ? end - m.b : 0);
      if (w.chained && k + 1 < w.n) {
        set_at = ctx.now_ns();
        ctx.send_after(ctx.self(), message{k + 1, 0, 0}, w.gap_ns, true);
      }
    }
  };
  receiver* r = nullptr;

  explicit timers_workload(const workload_params& p)
      : n(std::uint64_t(p.integer("n"))), gap_ns(std::uint64_t(p.integer("gap_us")) * 1000),
        cost_ns(std::uint64_t(p.integer("cost_us")) * 1000), same(p.boolean("same_deadline")),
        chained(p.boolean("chained")), declared(p.boolean("declared")) {}
  bool uses_timers() const override { return declared; }
  void start(context& ctx) override {
    auto made = ctx.spawn_as<receiver>({}, *this);
    r = &made.behavior;
    t0 = ctx.now_ns();
    if (!declared) {
      ctx.send(made, message{0, 0, 0});
      return;
    }
    if (chained) {
      r->set_at = t0;
      ctx.send_after(made, message{0, 0, 0}, gap_ns, true);
      return;
    }
    for (std::uint64_t k = 0; k < n; ++k) ctx.send_after(made, message{k, 0, 0}, (same ? 1 : k + 1) * gap_ns, true);
  }
  std::uint64_t checksum() const override { return received; }
  std::uint64_t reference_checksum() const override { return declared ? n : 0; }
  std::uint64_t expected_messages() const override { return declared ? n : 1; }
  bool result_ok() const override { return early == 0 && disorder == 0; }
  std::string detail() const override {
    return "early " + std::to_string(early) + " disorder " + std::to_string(disorder) + " late_max " +
           std::to_string(late_max) + " burned " + std::to_string(burned);
  }
};

const bool registered = register_workload(
    {"test-timers", "timers to one receiver that checks when and in which order they arrive",
     {{"n", std::int64_t(100), "timers"},
      {"gap_us", std::int64_t(100), "microseconds between deadlines"},
      {"cost_us", std::int64_t(0), "timer k's handling burns (k + 1) x this", 0},
      {"same_deadline", false, "every timer has the deadline gap_us"},
      {"chained", false, "the receiver sets each next timer"},
      {"declared", true, "the workload declares uses_timers"}},
     [](const workload_params& p, std::uint64_t) { return std::make_unique<timers_workload>(p); }});

scenario timers_scenario(std::map<std::string, param_value> params, const std::string& idle = "park",
                         std::uint32_t workers = 2) {
  scenario s;
  s.name = "timers";
  s.workload = "test-timers";
  s.workload_params = std::move(params);
  s.sched.policy = "stealing";
  s.sched.workers = workers;
  s.sched.idle.strategy = idle;
  s.sched.checks = true;
  return s;
}

std::uint64_t detail_value(const run_result& r, const std::string& key) {
  const auto at = r.detail.find(key + " ");
  REQUIRE_MESSAGE(at != std::string::npos, r.detail);
  return std::stoull(r.detail.substr(at + key.size() + 1));
}

template <class P>
constexpr bool simulated = std::is_same_v<P, sim_platform>;

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("timers: each message arrives no earlier than its deadline and in deadline order, set "
                          "before the run or by a behavior during it" * doctest::test_suite("concurrency") * doctest::timeout(120),
                          P, arrivals) {
  for (bool chained : {false, true}) {
    CAPTURE(chained);
    const run_result r = run_on<P>(timers_scenario({{"n", std::int64_t(200)}, {"gap_us", std::int64_t(200)}, {"chained", chained}}), 2);
    CHECK_MESSAGE(r.ok(), r.detail);
    CHECK(r.messages == 200);
    CHECK(r.timers == 200);
    if constexpr (simulated<P>) {  // exact: the timer service wakes at the deadline, plus the OS wake-up it models
      CHECK(detail_value(r, "late_max") < 50'000);
      CHECK(r.wall_s >= 200 * 200e-6);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(arrivals, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("timers: timers with the same deadline arrive in the order they were set" * doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, ties) {
  const run_result r = run_on<P>(timers_scenario({{"n", std::int64_t(300)}, {"same_deadline", true}}), 2);
  CHECK_MESSAGE(r.ok(), r.detail);  // disorder 0: k arrived k-th
}
TEST_CASE_TEMPLATE_APPLY(ties, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("timers: a workload that does not declare uses_timers cannot set one: its actor fails, "
                          "saying why, and the run ends" * doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, undeclared) {
  const run_result r = run_on<P>(timers_scenario({{"declared", false}}), 2);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].find("uses_timers") != std::string::npos);
  CHECK(r.messages == 1);
}
TEST_CASE_TEMPLATE_APPLY(undeclared, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("latency: a hand-built schedule of requests has a known p50, p99 and max" * doctest::test_suite("concurrency") * doctest::timeout(120),
                          P, known_latency) {
  // request k burns (k + 1) x 3 us, alone (deadlines 1.1 ms apart, the longest 0.9 ms): its
  // latency is its work plus the runtime's. 300 requests: the p50 is request 150's (rank
  // 150), the p99 request 297's, the max request 300's.
  const run_result r = run_on<P>(
      timers_scenario({{"n", std::int64_t(300)}, {"gap_us", std::int64_t(1100)}, {"cost_us", std::int64_t(3)}}), 2);
  REQUIRE_MESSAGE(r.ok(), r.detail);
  const latency_summary& l = r.request_latency;
  CHECK(l.count == 300);
  // never less than the work (a bucket's middle is within 3.2% of its values)
  CHECK(double(l.p50_ns) >= 150 * 3000 * 0.968);
  CHECK(double(l.p99_ns) >= 297 * 3000 * 0.968);
  CHECK(l.max_ns >= 300 * 3000);
  if constexpr (simulated<P>) {  // and, in simulation, the runtime's share is a few modeled microseconds
    CHECK(double(l.p50_ns) <= 150 * 3000 * 1.032 + 10'000);
    CHECK(double(l.p99_ns) <= 297 * 3000 * 1.032 + 10'000);
    CHECK(l.max_ns <= 300 * 3000 + 10'000);
    // each delivery found the receiver idle and made it runnable from outside: every turn
    // records its delay (on real cores a delivery may find it still owned by the worker
    // that ran it, which then runs it with no push)
    CHECK(r.scheduling_delay.count == 300);
  } else {
    CHECK(r.scheduling_delay.count > 0);
    CHECK(r.scheduling_delay.count <= 300);
  }
}
TEST_CASE_TEMPLATE_APPLY(known_latency, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("cpu: a worker's CPU time covers the work it burned, and parked time is idle time" *
                              doctest::test_suite("concurrency") * doctest::timeout(120),
                          P, cpu_time) {
  const run_result r = run_on<P>(
      timers_scenario({{"n", std::int64_t(100)}, {"gap_us", std::int64_t(1000)}, {"cost_us", std::int64_t(2)}}, "park", 1), 1);
  REQUIRE_MESSAGE(r.ok(), r.detail);
  const std::uint64_t burned = detail_value(r, "burned");  // 2 us x (1 + ... + 100) = 10.1 ms
  CHECK(burned == 2000 * 5050);
  REQUIRE(r.per_worker.size() == 1);
  const worker_stats& w = r.per_worker[0];
  CHECK(w.cpu_ns >= burned);  // burn_ns burns CPU time, whatever the host does
  CHECK(w.parked_ns <= w.idle_ns);
  if constexpr (simulated<P>) {
    // parked between requests: the CPU time is the work and the runtime's, far below the 100 ms
    CHECK(double(w.cpu_ns) < double(burned) * 1.2);
    CHECK(double(w.parked_ns) > r.wall_s * 1e9 * 0.8);
    // busy-spin: the core is busy all along
    const run_result spin = run_on<P>(
        timers_scenario({{"n", std::int64_t(100)}, {"gap_us", std::int64_t(1000)}, {"cost_us", std::int64_t(2)}}, "busy-spin", 1), 1);
    REQUIRE(spin.ok());
    CHECK(double(spin.per_worker[0].cpu_ns) >= spin.wall_s * 1e9 * 0.99);
    CHECK(spin.per_worker[0].parked_ns == 0);
  }
}
TEST_CASE_TEMPLATE_APPLY(cpu_time, both_platforms);
