// The diff's rows: which differences it calls the largest, and how it shows a change from a near-zero base.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "traces/diff.hpp"
#include "traces/diff_text.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
using namespace twinsched::traces;

namespace {

diff_metric row(std::string name, std::string unit, double a, double b) {
  diff_metric m;
  m.name = std::move(name);
  m.unit = std::move(unit);
  m.a = a;
  m.b = b;
  return m;
}

/// The comparison: a real run against its simulation, the makespan 80.5% shorter, an
/// idle share of 0.05% against 0.52%, a parked share from nothing to 18.5%.
diff_report real_vs_sim() {
  diff_report d;
  d.metrics = {row("makespan", "ms", 25.6, 4.99),          row("throughput", "msgs/s", 195000, 1002000),
               row("messages", "", 5000, 5000),             row("worker 0 busy", "%", 99.2, 97.1),
               row("worker 0 idle", "%", 0.05, 0.52),       row("worker 0 parked", "%", 0.00001, 18.47),
               row("steals", "", 1, 1847),                  row("queueing p50", "us", 120, 180)};
  return d;
}

std::size_t find(const diff_report& d, const std::string& name) {
  for (std::size_t i = 0; i < d.metrics.size(); ++i)
    if (d.metrics[i].name == name) return i;
  return d.metrics.size();
}

}  // namespace

TEST_CASE("the largest differences rank the makespan first, and a share by its change in points") {
  const diff_report d = real_vs_sim();
  const auto top = largest_differences(d, 3);
  REQUIRE(top.size() == 3);
  CHECK(d.metrics[top[0]].name == "makespan");
  CHECK(d.metrics[top[1]].name == "throughput");  // +414%
  CHECK(d.metrics[top[2]].name == "queueing p50");  // +50%
  // 0.05% -> 0.52% of the time is 0.47 points, not +940%; a near-zero base ranks nowhere
  CHECK(std::find(top.begin(), top.end(), find(d, "worker 0 idle")) == top.end());
  CHECK(std::find(top.begin(), top.end(), find(d, "worker 0 parked")) == top.end());
  CHECK(d.metrics[find(d, "worker 0 idle")].size() == doctest::Approx(0.0047));
  // the makespan first even where another row changed more
  diff_report small = d;
  small.metrics[find(small, "makespan")].b = 25.0;  // -2.3%
  CHECK(small.metrics[largest_differences(small, 1).front()].name == "makespan");
  // an unchanged makespan is no difference
  small.metrics[find(small, "makespan")].b = 25.6;
  CHECK(small.metrics[largest_differences(small, 1).front()].name == "throughput");
}

TEST_CASE("a change from a near-zero base shows its absolute size, never a percentage of almost nothing") {
  const diff_report d = real_vs_sim();
  const diff_metric& parked = d.metrics[find(d, "worker 0 parked")];
  CHECK(parked.near_zero_base());
  CHECK_FALSE(parked.relative());
  CHECK(*parked.delta() == doctest::Approx(18.47).epsilon(1e-4));
  const diff_metric& steals = d.metrics[find(d, "steals")];  // 1 -> 1847: +184600% says nothing
  CHECK(steals.near_zero_base());
  CHECK_FALSE(steals.relative());
  const diff_metric& idle = d.metrics[find(d, "worker 0 idle")];  // a share under 1% of the time
  CHECK(idle.near_zero_base());
  CHECK_FALSE(d.metrics[find(d, "throughput")].near_zero_base());
  CHECK(*d.metrics[find(d, "throughput")].relative() == doctest::Approx(4.1385).epsilon(1e-3));

  std::ostringstream out;
  print_diff(out, d);
  const std::string text = out.str();
  CAPTURE(text);
  CHECK(text.find("1847293") == std::string::npos);
  CHECK(text.find("184600") == std::string::npos);
  std::istringstream lines(text);
  std::string line;
  bool parked_seen = false;
  while (std::getline(lines, line)) {
    if (line.rfind("worker 0 parked", 0) != 0) continue;
    parked_seen = true;
    CHECK(line.find("+18.470") != std::string::npos);  // B - A
    CHECK(line.find("base ~0") != std::string::npos);
    CHECK(line.find('%', line.find(')')) == std::string::npos);  // no percentage after the name's "(%)"
  }
  CHECK(parked_seen);
}

TEST_CASE("a share near zero differs by its change in points, not by its ratio") {
  diff_metric m = row("worker 1 busy", "%", 0.4, 0.9);  // +125% of a sliver: 0.5 points
  CHECK(m.near_zero_base());
  CHECK(m.size() == doctest::Approx(0.005));
}
TEST_SUITE_END();
