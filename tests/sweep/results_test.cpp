// Sweep results: rows round-trip through JSON, CSV lines quote what needs it, and reopened files resume where they stopped.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "scenarios/scenario_loader.hpp"
#include "sweep/result_files.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

namespace {

sweep_spec two_by_two() {
  return load_sweep_text("[axes]\npolicy = [\"stealing\", \"sharing\"]\ncores = [1, 2]\n", "r.toml");
}

sweep_row ok_row(const sweep_cell& c, double msgs_per_s) {
  run_result r;
  r.messages = r.expected_messages = 10;
  r.wall_s = 10 / msgs_per_s;
  r.per_worker.resize(2);
  r.per_worker[1].steals = 3;
  return make_row(c, r, 0.25);
}

std::string temp_prefix() {
  return (std::filesystem::temp_directory_path() / ("sweep-results-" + std::to_string(::getpid()))).string();
}

}  // namespace

TEST_CASE("a row reads back from its JSON exactly") {
  sweep_spec s = two_by_two();
  auto cells = expand(s);
  sweep_row r = ok_row(cells[3], 1234.5);
  r.error = "a, \"quoted\" error";
  sweep_row back = row_from_json(s, nlohmann::json::parse(row_json(s, r).dump()));
  CHECK(back.key == r.key);
  CHECK(back.values == std::vector<std::string>{"sharing", "2"});
  CHECK(back.verdict == "OK");
  CHECK(back.steals == 3);
  CHECK(back.msgs_per_s == r.msgs_per_s);
  CHECK(csv_line(back) == csv_line(r));
  CHECK(csv_line(r).find(",\"a, \"\"quoted\"\" error\",") != std::string::npos);
  CHECK(row_json(s, r)["cores"].is_number());
}

TEST_CASE("reopening results with resume keeps the rows done, and an ERROR row or a torn line does not count") {
  sweep_spec s = two_by_two();
  auto cells = expand(s);
  const std::string prefix = temp_prefix();
  {
    result_files f(s, prefix, result_files::mode::overwrite);
    f.append(ok_row(cells[0], 100));
    f.append(error_row(cells[1], "simulation process died", 0.1));
  }
  std::ofstream(prefix + ".jsonl", std::ios::app) << "{\"cell\": 2, \"key\": \"backend=sim po";  // interrupted
  {
    result_files f(s, prefix, result_files::mode::resume);
    REQUIRE(f.rows().size() == 2);
    CHECK(f.rows().at(cells[0].key).done());
    CHECK_FALSE(f.rows().at(cells[1].key).done());
    f.append(ok_row(cells[1], 200));  // the rerun replaces the ERROR row
  }
  auto rows = read_rows(s, prefix + ".jsonl");
  CHECK(rows.size() == 2);
  CHECK(rows.at(cells[1].key).verdict == "OK");
  std::ifstream csv(prefix + ".csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header == csv_header(s));
  CHECK_THROWS_AS(result_files(s, prefix, result_files::mode::create), scenario_error);  // no silent mixing
  std::filesystem::remove(prefix + ".csv");
  std::filesystem::remove(prefix + ".jsonl");
}

TEST_CASE("results whose columns are another sweep's are not resumed") {
  sweep_spec s = two_by_two();
  const std::string prefix = temp_prefix() + "-other";
  std::ofstream(prefix + ".csv") << "cell,backend,idle,verdict\n";
  CHECK_THROWS_WITH_AS(result_files(s, prefix, result_files::mode::resume), doctest::Contains("cannot resume"),
                       scenario_error);
  std::filesystem::remove(prefix + ".csv");
  std::filesystem::remove(prefix + ".jsonl");
}
