// The accuracy matrix's comparison: signed errors per metric, the summary over the cases, the tolerance verdict.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "accuracy_fixture.hpp"
#include "twin/accuracy_summary.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::twin;
using twinsched::twin::test::made;

namespace {

const accuracy_metric& metric(const std::string& key) {
  for (const auto& m : accuracy_metrics())
    if (key == m.key) return m;
  FAIL("no metric " << key);
  return accuracy_metrics()[0];
}

}  // namespace

TEST_CASE("the metrics: makespan first, busy share in points, every counter, the CPU time and the latencies relative") {
  const auto& m = accuracy_metrics();
  REQUIRE(m.size() == 13);
  CHECK(std::string(m[0].key) == "makespan_ms");
  CHECK(metric("busy_pct").points);
  for (const char* key : {"messages", "turns", "steals", "parks", "wakeups", "donations", "migrations", "peak_threads",
                          "cpu_ms", "latency_p50_us", "latency_p99_us"})
    CHECK_FALSE(metric(key).points);
}

TEST_CASE("metric_error: the workers' CPU time and the requests' p50 and p99, real against simulated") {
  accuracy_case c = made("open", 100, 100);
  c.real.per_worker[0].cpu_ns = 40'000'000;
  c.sim.run.per_worker[0].cpu_ns = 30'000'000;
  CHECK(metric("cpu_ms").real(c) == doctest::Approx(40.0));
  CHECK(*metric_error(metric("cpu_ms"), c) == doctest::Approx(-25.0));
  c.real.request_latency.p50_ns = 20'000;
  c.sim.run.request_latency.p50_ns = 25'000;
  c.real.request_latency.p99_ns = 100'000;
  c.sim.run.request_latency.p99_ns = 50'000;
  CHECK(*metric_error(metric("latency_p50_us"), c) == doctest::Approx(25.0));
  CHECK(*metric_error(metric("latency_p99_us"), c) == doctest::Approx(-50.0));
}

TEST_CASE("metric_error: signed relative error, points for busy share, n/a for a counter 0 on real cores only") {
  accuracy_case c = made("f", 100, 80);
  CHECK(*metric_error(metric("makespan_ms"), c) == doctest::Approx(-20.0));  // the simulator predicts too short
  c.real.per_worker[0].busy_ns = 60;
  c.real.per_worker[0].idle_ns = 40;
  c.sim.run.per_worker[0].busy_ns = 75;
  c.sim.run.per_worker[0].idle_ns = 25;
  CHECK(*metric_error(metric("busy_pct"), c) == doctest::Approx(15.0));  // 75% - 60%, in points
  c.sim.run.per_worker[0].steals = 5;
  CHECK_FALSE(metric_error(metric("steals"), c).has_value());  // real 0, sim 5
  CHECK(*metric_error(metric("parks"), c) == 0.0);               // 0 on both sides
  c.real.per_worker[0].steals = 10;
  CHECK(*metric_error(metric("steals"), c) == doctest::Approx(-50.0));
}

TEST_CASE("median: the middle value, the mean of the two middle ones, 0 for none") {
  CHECK(median({}) == 0);
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
}

TEST_CASE("summarize: failed and host-moved cases are counted apart and left out of the statistics") {
  std::vector<accuracy_case> cases{made("a", 100, 95), made("b", 100, 120), made("c", 100, 140), made("d", 100, 50),
                                   made("e", 100, 10)};
  cases[3].failure = "real run: checksum differs";
  cases[4].host_moved = true;
  const accuracy_summary sum = summarize(cases);
  CHECK(sum.cases == 5);
  CHECK(sum.compared == 3);
  CHECK(sum.failed == 1);
  CHECK(sum.host_moved == 1);
  CHECK(sum.median_abs_error_pct == doctest::Approx(20.0));  // |-5|, |20|, |40|
  CHECK(sum.worst_abs_error_pct == doctest::Approx(40.0));
  CHECK(sum.worst_case == "c stealing 1w");
  CHECK(sum.within_10 == 1);
  CHECK(sum.within_25 == 2);
  REQUIRE(sum.metric_median_abs.size() == accuracy_metrics().size());
  CHECK(*sum.metric_median_abs[0] == doctest::Approx(20.0));
  CHECK_FALSE(sum.metric_median_abs[4].has_value());  // no case stole: steals say nothing
  CHECK(makespan_summary(sum) ==
        "makespan |error|: median 20.0%, worst 40.0% (c stealing 1w); within 10%: 1 of 3, within 25%: 2 of 3");
}

TEST_CASE("summarize: a counter's median skips the cases where it is 0 on both sides") {
  std::vector<accuracy_case> cases{made("a", 100, 100), made("b", 100, 100)};
  cases[0].real.per_worker[0].steals = 10;
  cases[0].sim.run.per_worker[0].steals = 13;
  const accuracy_summary sum = summarize(cases);
  CHECK(*sum.metric_median_abs[4] == doctest::Approx(30.0));  // case b's 0 / 0 would have halved it
}

TEST_CASE("within_tolerance: both limits, and never with a failed case or nothing compared") {
  std::vector<accuracy_case> cases{made("a", 100, 105), made("b", 100, 130)};
  accuracy_setup setup;
  accuracy_summary sum = summarize(cases);  // median 17.5%, worst 30%
  CHECK(within_tolerance(setup, sum));
  setup.tolerance = 0.2;
  CHECK(within_tolerance(setup, sum));
  setup.tolerance = 0.1;
  CHECK_FALSE(within_tolerance(setup, sum));
  setup.tolerance.reset();
  setup.worst_tolerance = 0.25;
  CHECK_FALSE(within_tolerance(setup, sum));
  setup.worst_tolerance = 0.3;
  CHECK(within_tolerance(setup, sum));
  cases.push_back(made("c", 100, 100));
  cases.back().failure = "simulation: hung";
  CHECK_FALSE(within_tolerance(setup, summarize(cases)));
  CHECK_FALSE(within_tolerance(accuracy_setup{}, summarize({})));
}
