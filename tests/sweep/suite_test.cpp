// Suites: a folder's benchmarks and --only, the grid (every policy where it applies), the table, the best per benchmark, JSON and the page.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>

#include "scenarios/scenario_loader.hpp"
#include "sweep/suite_report.hpp"
#include "sweep/suite_table.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

namespace {

/// A folder of two benchmarks: pp (pingpong, no groups) and pool (groups: donation applies).
std::string tiny_suite() {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("suite-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "pp.toml") << "name = \"pp\"\n[workload]\nkind = \"pingpong\"\nbounces = 100\n";
  std::ofstream(dir / "pool.toml") << "name = \"pool\"\n[workload]\nkind = \"pool\"\n";
  std::ofstream(dir / "notes.txt") << "not a scenario\n";
  return dir.string();
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const scenario_error& e) {
    return e.what();
  }
  return "(no error)";
}

sweep_row row_of(const sweep_cell& c, double seconds, bool ok = true) {
  run_result r;
  r.messages = r.expected_messages = 100;
  r.wall_s = seconds;
  if (!ok) r.errors.push_back("planted failure");
  return make_row(c, r, 0.1);
}

}  // namespace

TEST_CASE("a suite is a stock folder by name or any folder by path, and --only picks benchmarks by name") {
  const std::string dir = tiny_suite();
  CHECK(suite_folder(dir) == dir);
  CHECK(std::filesystem::path(suite_folder("savina")) == std::filesystem::path(stock_scenario_folder()) / "savina");
  const auto stock = stock_suite_names();
  CHECK(std::find(stock.begin(), stock.end(), "savina") != stock.end());
  CHECK(std::find(stock.begin(), stock.end(), "sweeps") == stock.end());
  CHECK(error_of([] { suite_folder("nope"); }).find("nope: no such suite: no folder ") == 0);
  CHECK(error_of([] { suite_folder("nope"); }).find("suites: ") != std::string::npos);
  CHECK(error_of([] { suite_folder("sweeps"); }).find("no such suite") != std::string::npos);
  CHECK(error_of([&] { suite_folder(dir + "/pp.toml"); }).find("not a folder of scenario files") != std::string::npos);

  const auto all = suite_benchmarks(dir, dir, {});
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "pool");  // sorted by file
  CHECK(all[1].scenario == dir + "/pp.toml");
  const auto one = suite_benchmarks(dir, dir, {"pp"});
  REQUIRE(one.size() == 1);
  CHECK(one[0].name == "pp");
  CHECK(error_of([&] { suite_benchmarks("mine", dir, {"x", "pp", "y"}); }) ==
        "--only: no benchmark x, y in suite mine; known: pool, pp");
}

TEST_CASE("the grid is each benchmark under every policy that applies, workers on real cores and cores in simulation") {
  suite_request r;
  r.suite = tiny_suite();
  r.cores = {1, 4};
  const suite_plan p = plan_suite(r);
  REQUIRE(p.specs.size() == 2);
  CHECK(p.specs[0].backends == std::vector<std::string>{"real"});
  CHECK(p.specs[1].axes.back().name == "cores");
  CHECK(p.policies == policy_names());
  const auto has = [&](const std::string& key) {
    return std::any_of(p.cells.begin(), p.cells.end(), [&](const sweep_cell& c) { return c.key == key; });
  };
  CHECK(has("backend=real scenario=" + r.suite + "/pool.toml policy=donation workers=2"));
  CHECK(has("backend=sim scenario=" + r.suite + "/pp.toml policy=stealing cores=4"));
  CHECK_FALSE(has("backend=sim scenario=" + r.suite + "/pp.toml policy=donation cores=4"));
  std::size_t pp_donation = 0;
  for (const auto& s : p.skipped) pp_donation += s.values[0] == r.suite + "/pp.toml" && s.values[1] == "donation";
  CHECK(pp_donation == 4);  // 2 worker counts + 2 core counts
  for (std::size_t i = 0; i < p.cells.size(); ++i) CHECK(p.cells[i].index == i);
  for (const auto& c : p.cells)
    if (c.backend == "sim") CHECK(c.s.sched.workers == c.o.cores);
  CHECK(p.cells.front().o.time_limit_s == 600);

  suite_request only_sim = r;
  only_sim.backend = "sim";
  only_sim.policies = {"sharing", "stealing"};
  const suite_plan q = plan_suite(only_sim);
  CHECK(q.policies == std::vector<std::string>{"sharing", "stealing"});
  CHECK(q.cells.size() == 2 * 2 * 2);
  CHECK(suite_columns(q).size() == 2);
  CHECK(suite_config("real", "2") == "real 2w");
  CHECK(suite_config("sim", "16") == "sim 16c");

  suite_request bad = r;
  bad.policies = {"stealing", "nope"};
  CHECK(error_of([&] { plan_suite(bad); }).find("--policies: unknown policy 'nope'; valid: ") == 0);
  bad = r;
  bad.cores = {0};
  CHECK(error_of([&] { plan_suite(bad); }).find("--cores: cores takes a whole number from 1") == 0);
  bad = r;
  bad.policies = {"donation"};
  bad.only = {"pp"};
  CHECK(error_of([&] { plan_suite(bad); }).find("no cell can run: donation needs") != std::string::npos);
}

TEST_CASE("the table shows each cell's time or verdict, the best per benchmark and what cannot run, and JSON and the page agree") {
  suite_request r;
  r.suite = tiny_suite();
  r.policies = {"sharing", "stealing", "donation"};
  r.workers = {1, 2};
  r.cores = {2};
  const suite_plan p = plan_suite(r);
  suite_rows rows;
  double t = 0.001;
  for (const auto& c : p.cells) {
    const bool planted = c.key == "backend=sim scenario=" + r.suite + "/pp.toml policy=sharing cores=2";
    rows[c.key] = row_of(c, t, !planted);
    t += 0.001;
  }
  std::ostringstream table;
  print_suite_table(table, p, rows);
  const std::string text = table.str();
  INFO(text);
  CHECK(text.rfind("benchmark  policy    real 1w  real 2w   sim 2c  verdict\n", 0) == 0);
  CHECK(text.find("\npool       sharing   1.00 ms  2.00 ms  11.0 ms  OK\n") != std::string::npos);
  CHECK(text.find("pp         sharing ") != std::string::npos);
  CHECK(text.find("   FAIL  FAIL: sim 2c\n") != std::string::npos);
  CHECK(time_text(0.000125) == "125 us");
  CHECK(time_text(2.5) == "2.50 s");
  CHECK(time_text(0.0999) == "99.9 ms");
  CHECK(text.find("pp         donation") == std::string::npos);  // applies nowhere to pp: no line
  CHECK(text.find("n/a: donation cannot run on pp (e.g. donation needs a workload with a group") != std::string::npos);
  CHECK(text.find("  pool  real: sharing at 1w, 1.00 ms  sim: sharing at 2c, 11.0 ms\n") != std::string::npos);  // lowest
  CHECK(text.find("  pp    real: sharing at 1w, 7.00 ms  sim: stealing at 2c, 15.0 ms\n") != std::string::npos);  // FAIL skipped
  CHECK_FALSE(suite_ok(p, rows));

  const auto j = suite_json(p, rows);
  CHECK(j["rows"].size() == p.cells.size());
  CHECK(j["skipped"].size() == p.skipped.size());
  const auto& first = j["rows"][0];
  CHECK(first["benchmark"] == "pool");
  CHECK(first["backend"] == "real");
  CHECK(first["policy"] == "sharing");
  CHECK(first["workers"] == 1);
  CHECK_FALSE(first.contains("cores"));
  CHECK(first["time_s"] == 0.001);
  CHECK(first["verdict"] == "OK");
  CHECK(j["best"].size() == 4);
  CHECK(j["best"][3] == nlohmann::ordered_json{{"benchmark", "pp"}, {"backend", "sim"}, {"policy", "stealing"}, {"cores", 2}, {"time_s", j["best"][3]["time_s"]}});

  std::ostringstream page;
  write_suite_report(page, p, rows);
  const std::string html = page.str();
  CHECK(html.find("<h2>pool</h2>") != std::string::npos);
  CHECK(html.find("<h2>pp</h2>") != std::string::npos);
  CHECK(html.find("<p>best: real sharing at 1w, 1.00 ms; sim sharing at 2c, 11.0 ms;</p>") != std::string::npos);
  CHECK(std::count(html.begin(), html.end(), '<') > 100);
  std::size_t charts = 0;
  for (std::size_t at = 0; (at = html.find("<svg", at)) != std::string::npos; ++at) ++charts;
  CHECK(charts == 4);  // a benchmark x backend
  CHECK(html.find("class=\"fail\" title=\"planted failure\">FAIL<") != std::string::npos);

  rows.erase(p.cells.front().key);
  for (auto& [k, row] : rows) row.verdict = "OK";
  CHECK_FALSE(suite_ok(p, rows));  // a cell that did not run
  rows[p.cells.front().key] = row_of(p.cells.front(), 1);
  CHECK(suite_ok(p, rows));
}

TEST_CASE("test sizes come from .cases lines, by benchmark value or name, and --quick finds the source tree's") {
  const std::string dir = tiny_suite();
  const auto benchmarks = suite_benchmarks(dir, dir, {});
  const std::string cases = dir + "/sizes.cases";
  std::ofstream(cases) << "# a comment\n\nsavina/pp | stealing sharing | --param bounces=10 --param cost_ns=5\n"
                       << "other/x | stealing | --param nope=1\n";
  const auto sizes = read_sizes({cases}, benchmarks);
  REQUIRE(sizes.size() == 1);  // other/x is no benchmark of this suite
  CHECK(sizes.at(dir + "/pp.toml") == std::vector<std::string>{"bounces=10", "cost_ns=5"});
  suite_request r;
  r.suite = dir;
  r.sizes = {cases};
  r.backend = "sim";
  r.policies = {"stealing"};
  const suite_plan p = plan_suite(r);
  CHECK(p.sizes.size() == 1);
  for (const auto& c : p.cells)
    if (c.s.workload == "pingpong") CHECK(c.effective["workload"]["bounces"] == 10);

  std::ofstream(cases) << "pp | stealing | --workers 2\n";
  CHECK(error_of([&] { read_sizes({cases}, benchmarks); }) == cases + ":1:16: only --param KEY=VALUE is read here, not '--workers'");
  std::ofstream(cases) << "pp | stealing | --param nope=2\n";
  CHECK(error_of([&] { read_sizes({cases}, benchmarks); }).find(cases + ":1:16: pp: unknown parameter 'nope'") == 0);
  std::ofstream(cases) << "pp stealing\n";
  CHECK(error_of([&] { read_sizes({cases}, benchmarks); }).find("expected SCENARIO | POLICIES | --param") != std::string::npos);
  CHECK(error_of([&] { read_sizes({dir + "/none.cases"}, benchmarks); }).find("cannot read") != std::string::npos);

  const auto quick = quick_size_files("savina");  // the source tree's tests/savina/*.cases
  REQUIRE_FALSE(quick.empty());
  CHECK(quick.front().ends_with(".cases"));
  CHECK(error_of([] { quick_size_files("nosuch"); }).find("--quick: no test sizes for suite nosuch") == 0);
  CHECK(error_of([&] { quick_size_files(dir); }).find("--quick: no test sizes") == 0);
}
