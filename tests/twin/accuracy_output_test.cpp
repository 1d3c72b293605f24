// The accuracy matrix's output: the tables as text and Markdown, the summary lines, the host check, the JSON.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "accuracy_fixture.hpp"
#include "twin/accuracy_host_check.hpp"
#include "twin/accuracy_json.hpp"
#include "twin/accuracy_table.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::twin;
using twinsched::twin::test::made;

namespace {

accuracy_setup two_runs() {
  accuracy_setup s;
  s.machine = "m";
  s.host_cores = 2;
  s.runs = 2;
  return s;
}

/// Two compared cases (a: -20%, its runs 100 and 120 ms; b: +5%) and a failed one.
std::vector<accuracy_case> three_cases() {
  std::vector<accuracy_case> cases{made("a", 100, 80), made("b", 10, 10.5), made("c", 5, 5)};
  cases[0].real_runs_s = {0.1, 0.12};
  cases[0].real.per_worker[0].steals = 20;
  cases[0].sim.run.per_worker[0].steals = 25;
  cases[2].failure = "real run: checksum differs from the sequential reference";
  return cases;
}

std::string printed(const accuracy_setup& setup, const std::vector<accuracy_case>& cases, bool markdown) {
  std::ostringstream out;
  print_accuracy(out, setup, cases, summarize(cases), markdown);
  return out.str();
}

}  // namespace

TEST_CASE("print_accuracy: aligned tables, a FAIL row, counters shown only where a case saw them, the summary") {
  CHECK(printed(two_runs(), three_cases(), false) ==
        "Makespan: real (median of 2 runs after 1 warm-up, in rounds over the matrix, on this machine's 2 cores) vs "
        "simulated (m, one modeled core per worker, adaptive's extra threads included); error = (sim - real) / real\n"
        "\n"
        "scenario  policy    workers  real ms  real spread  sim ms   error\n"
        "a         stealing        1      100          20%    80.0  -20.0%\n"
        "b         stealing        1     10.0            -    10.5   +5.0%\n"
        "c         stealing        1     5.00            -    5.00    FAIL\n"
        "\n"
        "Busy share and counters: real / sim, error (busy share in percentage points)\n"
        "\n"
        "scenario  policy    workers          steals\n"  // no other counter is nonzero anywhere
        "a         stealing        1  20 / 25 +25.0%\n"
        "b         stealing        1           0 / 0\n"
        "c         stealing        1               -\n"
        "\n"
        "FAILED c stealing 1w: real run: checksum differs from the sequential reference\n"
        "cases: 3 (2 compared, 1 failed)\n"
        "makespan |error|: median 12.5%, worst 20.0% (a stealing 1w); within 10%: 1 of 2, within 25%: 2 of 2\n"
        "median |error| of the counters (over the cases where they are not 0 on both sides): steals 25.0%\n");
}

TEST_CASE("print_accuracy: Markdown tables and bullets, the tolerance line says whether a failed case sank it") {
  accuracy_setup setup = two_runs();
  setup.tolerance = 0.5;
  setup.worst_tolerance = 0.25;
  const std::string t = printed(setup, three_cases(), true);
  CHECK(t.starts_with("### Makespan: real"));
  CHECK(t.find("| scenario | policy | workers | real ms | real spread | sim ms | error |\n"
               "|---|---|---:|---:|---:|---:|---:|\n| a | stealing | 1 | 100 | 20% | 80.0 | -20.0% |\n") !=
        std::string::npos);
  CHECK(t.find("- cases: 3 (2 compared, 1 failed)") != std::string::npos);
  CHECK(t.find("- tolerance: median |makespan error| <= 50%, worst |makespan error| <= 25% (and no failed case): FAIL\n") !=
        std::string::npos);
}

TEST_CASE("print_accuracy: a host-moved case is marked and left out, the host check fails") {
  auto cases = three_cases();
  cases.pop_back();
  cases[1].host_moved = true;
  accuracy_setup setup = two_runs();
  setup.model_line_ns = 10;
  setup.host_line_ns = {10, 11, 100, 100, 12};
  setup.runs_in_state = 2;
  setup.runs_off_state = 2;
  setup.reran = 1;
  const std::string t = printed(setup, cases, false);
  CHECK(t.find("+5.0% *\n") != std::string::npos);
  CHECK(t.find("cases: 2 (1 compared, 0 failed, 1 left out: the host was elsewhere)") != std::string::npos);
  CHECK(t.find("HOST CHECK FAILED: line transfer here: 10.0 ns before the real runs, 12.0 after (10.0-100.0 over 5 "
               "probes, one after each run); the model: 10.0 ns; 2 of 4 measured runs in the model's state (both probes "
               "around the run within 2x; 1 of the 4 re-runs, for runs the host spoiled). 1 case has no real run in "
               "that state and is left out of the summary (marked *)") != std::string::npos);
}

TEST_CASE("the host check: a probe within 2x of the model matches, no run in state fails it") {
  accuracy_setup setup;
  CHECK(probe_matches(setup, 1000));  // a model with no figure
  setup.model_line_ns = 10;
  CHECK(probe_matches(setup, 20));
  CHECK(probe_matches(setup, 5));
  CHECK_FALSE(probe_matches(setup, 20.5));
  CHECK_FALSE(probe_matches(setup, 4.9));
  accuracy_summary sum;
  CHECK(host_matches_model(setup, sum));
  CHECK(host_check_text(setup, sum).empty());  // nothing probed: nothing to say
  setup.host_line_ns = {80};
  setup.runs_off_state = 3;
  CHECK_FALSE(host_matches_model(setup, sum));
  CHECK(host_check_text(setup, sum).find("0 of 3 measured runs in the model's state (both probes around the run within "
                                         "2x). Not one: this machine is not in the state") != std::string::npos);
  setup.runs_in_state = 1;
  CHECK(host_matches_model(setup, sum));
  sum.host_moved = 1;
  CHECK_FALSE(host_matches_model(setup, sum));
  CHECK(host_warning(setup).starts_with("accuracy: warning: line transfer here 80.0 ns, the model's 10.0: over 2x apart"));
}

TEST_CASE("accuracy_json: the setup, every case with its errors (null where undefined or failed), summary, verdict") {
  accuracy_setup setup = two_runs();
  setup.tolerance = 0.25;
  auto cases = three_cases();
  cases[1].sim.run.per_worker[0].parks = 3;  // real 0: no relative error
  const nlohmann::json j = accuracy_json(setup, cases, summarize(cases));
  CHECK(j["machine"] == "m");
  CHECK(j["runs"] == 2);
  CHECK(j["order"] == "rounds");
  REQUIRE(j["cases"].size() == 3);
  const auto& a = j["cases"][0];
  CHECK(a["scenario"] == "a");
  CHECK(a["ok"] == true);
  CHECK(a["real"]["runs_s"] == nlohmann::json({0.1, 0.12}));
  CHECK(a["real"]["makespan_ms"] == doctest::Approx(100.0));
  CHECK(a["error"]["makespan_ms"].get<double>() == doctest::Approx(-20.0));
  CHECK(a["error"]["steals"].get<double>() == doctest::Approx(25.0));
  CHECK(j["cases"][1]["error"]["parks"].is_null());
  CHECK(j["cases"][2]["ok"] == false);
  CHECK(j["cases"][2]["error"]["makespan_ms"].is_null());
  CHECK(j["summary"]["compared"] == 2);
  CHECK(j["summary"]["failed"] == 1);
  CHECK(j["summary"]["worst_case"] == "a stealing 1w");
  CHECK(j["summary"]["median_abs_error"]["turns"].is_null());
  CHECK(j["tolerance_pct"].get<double>() == doctest::Approx(25.0));
  CHECK(j["worst_tolerance_pct"].is_null());
  CHECK(j["host_check"]["matches"] == true);
  CHECK(j["pass"] == false);  // the failed case
}
