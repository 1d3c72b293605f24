// The frontier's summary (medians of each cell's runs, the Pareto front) and its picture, on cells made by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "twin/frontier.hpp"
#include "viz/frontier_chart.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::twin;

namespace {

/// A run whose requests' p99 was p99_us and whose workers burned cpu_us over `requests` messages.
run_result run_of(double p99_us, double cpu_us_per_request, std::uint64_t requests = 1000, bool ok = true) {
  run_result r;
  r.messages = r.expected_messages = requests;
  r.wall_s = 1;
  r.per_worker.resize(1);
  r.per_worker[0].cpu_ns = std::uint64_t(cpu_us_per_request * 1e3 * double(requests));
  r.request_latency.count = requests;
  r.request_latency.p50_ns = std::uint64_t(p99_us * 500);
  r.request_latency.p99_ns = std::uint64_t(p99_us * 1e3);
  if (!ok) r.workload_ok = false;
  return r;
}

frontier_cell cell(const std::string& idle, std::vector<run_result> runs) {
  frontier_cell c;
  c.policy = "stealing";
  c.idle = idle;
  c.runs = std::move(runs);
  return c;
}

}  // namespace

TEST_CASE("frontier: each cell's figures are the medians of its runs, with the runs' range") {
  std::vector<frontier_cell> cells{cell("park", {run_of(100, 15), run_of(300, 17), run_of(120, 16)})};
  summarize_frontier(cells);
  const frontier_cell& c = cells[0];
  CHECK(c.p99_ns == doctest::Approx(120e3));
  CHECK(c.p99_low_ns == doctest::Approx(100e3));
  CHECK(c.p99_high_ns == doctest::Approx(300e3));
  CHECK(c.cpu_per_request_ns == doctest::Approx(16e3));
  CHECK(c.cpu_share == doctest::Approx(0.016));  // 16 ms of CPU over 1 s on one worker
  CHECK(c.ok);
  CHECK(c.on_front);  // alone
}

TEST_CASE("frontier: a cell is on the front unless another has both a lower p99 and less CPU, and a failed one never is") {
  std::vector<frontier_cell> cells{
      cell("busy-spin", {run_of(50, 99)}),   // fastest, dearest: on the front
      cell("park", {run_of(120, 15)}),       // cheapest: on the front
      cell("backoff", {run_of(110, 40)}),    // between the two: on the front
      cell("noop", {run_of(60, 99)}),        // as dear as busy-spin and slower: dominated
      cell("sleep", {run_of(130, 25)}),      // slower and dearer than park: dominated
      cell("yield", {run_of(10, 5, 1000, false)}),  // would dominate all, but its verdict failed
  };
  summarize_frontier(cells);
  CHECK(cells[0].on_front);
  CHECK(cells[1].on_front);
  CHECK(cells[2].on_front);
  CHECK_FALSE(cells[3].on_front);
  CHECK_FALSE(cells[4].on_front);
  CHECK_FALSE(cells[5].ok);
  CHECK_FALSE(cells[5].on_front);
}

TEST_CASE("frontier: equal cells do not dominate each other") {
  std::vector<frontier_cell> cells{cell("noop", {run_of(50, 99)}), cell("busy-spin", {run_of(50, 99)})};
  summarize_frontier(cells);
  CHECK(cells[0].on_front);
  CHECK(cells[1].on_front);
}

TEST_CASE("frontier picture: a dot per cell in its group's color, the front ringed and joined, the legend") {
  const std::vector<viz::frontier_dot> dots{{"stealing", "park", 15e3, 120e3, true},
                                            {"stealing", "busy-spin", 99e3, 50e3, true},
                                            {"sharing", "busy-spin", 99e3, 70e3, false}};
  const std::string svg = viz::frontier_svg(dots, "title <&>", "note");
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = svg.find(what); at != std::string::npos; at = svg.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  CHECK(count("r=\"5\" fill=\"#") == 3 + 2);  // three dots, two legend entries (park, busy-spin)
  CHECK(count("r=\"9\" fill=\"none\"") == 2 + 1);  // the two on the front, and the legend's ring
  CHECK(count("<path d=\"M") == 1);             // the front's step line
  CHECK(svg.find("title &lt;&amp;&gt;") != std::string::npos);
  CHECK(svg.find(">park<") != std::string::npos);
}
