// Sweep results: rows round-trip through JSON, CSV lines quote what needs it, and reopened files resume where they stopped.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
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

std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string resume_error(const sweep_spec& s, const std::string& prefix) {
  try {
    result_files f(s, prefix, result_files::mode::resume);
  } catch (const scenario_error& e) {
    return e.what();
  }
  return "(no error)";
}

void remove_results(const std::string& prefix) {
  for (const char* ext : {".csv", ".jsonl", ".sweep.json"}) std::filesystem::remove(prefix + ext);
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
  sweep_row back = row_from_json(s, nlohmann::ordered_json::parse(row_json(s, r).dump()));
  CHECK(back.key == r.key);
  CHECK(back.values == std::vector<std::string>{"sharing", "2"});
  CHECK(back.verdict == "OK");
  CHECK(back.steals == 3);
  CHECK(back.msgs_per_s == r.msgs_per_s);
  const auto columns = scenario_columns(s);
  CHECK(csv_line(back, columns) == csv_line(r, columns));
  CHECK(csv_line(r, columns).find(",\"a, \"\"quoted\"\" error\",") != std::string::npos);
  CHECK(row_json(s, r)["cores"].is_number());
  CHECK(back.scenario == cells[3].effective);  // the complete scenario travels with the row
  CHECK(row_json(s, r)["scenario"]["scheduler"]["policy"] == "sharing");
  CHECK(row_json(s, r)["scenario"]["sim"]["cores"] == 2);
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
    CHECK(f.dropped() == 1);
    CHECK(text_of(prefix + ".jsonl").find("backend=sim po\"") == std::string::npos);  // gone from the file
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
  remove_results(prefix);
}

TEST_CASE("resume refuses the results of another grid or other parameters, naming what changed") {
  sweep_spec s = two_by_two();
  const std::string prefix = temp_prefix() + "-changed";
  {
    result_files f(s, prefix, result_files::mode::overwrite);
    f.append(ok_row(expand(s)[0], 100));
  }
  const std::string rows_before = text_of(prefix + ".jsonl");
  CHECK(resume_error(s, prefix) == "(no error)");

  sweep_spec more = two_by_two();
  apply_axis_override(more, "cores=1,2,4");
  CHECK(resume_error(more, prefix).find("axis cores was 1,2, is 1,2,4") != std::string::npos);
  sweep_spec reordered = load_sweep_text("[axes]\ncores = [1, 2]\npolicy = [\"stealing\", \"sharing\"]\n", "r.toml");
  CHECK(resume_error(reordered, prefix).find("the axes' order was policy, cores, is cores, policy") != std::string::npos);
  sweep_spec tokens = two_by_two();
  apply_param(tokens, "tokens=7");
  const std::string e = resume_error(tokens, prefix);
  CHECK(e.find(prefix + ".sweep.json: the results beside it are another sweep's") == 0);
  CHECK(e.find("workload.tokens was ") != std::string::npos);
  CHECK(e.find(", is 7") != std::string::npos);
  sweep_spec slower = two_by_two();
  slower.sim.time_limit_s = 5;
  CHECK(resume_error(slower, prefix).find("sim.time_limit_s was 3600.0, is 5.0") != std::string::npos);
  CHECK(text_of(prefix + ".jsonl") == rows_before);  // refused before touching anything

  std::filesystem::remove(prefix + ".sweep.json");  // results nothing describes
  CHECK(resume_error(s, prefix).find("missing, so nothing says what the results") != std::string::npos);
  remove_results(prefix);
}

TEST_CASE("resume keeps complete rows, drops a torn last one, refuses a damaged one before it, and rebuilds the CSV") {
  sweep_spec s = two_by_two();
  auto cells = expand(s);
  const std::string prefix = temp_prefix() + "-torn";
  {
    result_files f(s, prefix, result_files::mode::overwrite);
    for (int i = 0; i < 3; ++i) f.append(ok_row(cells[std::size_t(i)], 100 + i));
  }
  const std::string csv = text_of(prefix + ".csv"), jsonl = text_of(prefix + ".jsonl");
  // Stopped between the two writes of cell 2's row, and again while writing the next one.
  std::ofstream(prefix + ".csv") << csv.substr(0, csv.rfind('\n', csv.size() - 2) + 1) << "3,sim,shar";
  std::ofstream(prefix + ".jsonl", std::ios::app) << "{\"cell\":3,\"key\":\"backend=sim";
  {
    result_files f(s, prefix, result_files::mode::resume);
    CHECK(f.dropped() == 1);
    CHECK(f.rows().size() == 3);
  }
  CHECK(text_of(prefix + ".jsonl") == jsonl);
  CHECK(text_of(prefix + ".csv") == csv);  // written again from the JSON lines: cell 2 is back, the torn line gone

  std::ofstream(prefix + ".jsonl", std::ios::app) << "{\"cell\":3,\"ke}\n";  // complete, but not a row
  {
    result_files f(s, prefix, result_files::mode::resume);
    CHECK(f.dropped() == 1);
  }
  CHECK(text_of(prefix + ".jsonl") == jsonl);

  std::ofstream(prefix + ".jsonl") << jsonl.substr(0, jsonl.find('\n') + 1) << "garbage\n"
                                   << jsonl.substr(jsonl.find('\n') + 1);
  CHECK(resume_error(s, prefix).find(prefix + ".jsonl:2:1: not a sweep row") == 0);
  remove_results(prefix);
}

TEST_CASE("results whose columns are another sweep's are not resumed") {
  sweep_spec s = two_by_two();
  const std::string prefix = temp_prefix() + "-other";
  std::ofstream(prefix + ".csv") << "cell,backend,idle,verdict\n";
  CHECK_THROWS_WITH_AS(result_files(s, prefix, result_files::mode::resume), doctest::Contains("cannot resume"),
                       scenario_error);
  remove_results(prefix);
}

TEST_CASE("with a scenario axis, rows carry the scenario, the CSV has every scenario's settings, and resume keys include it") {
  const auto two_scenarios = [] {
    return load_sweep_text("[axes]\nscenario = [\"pingpong\", \"forward\"]\ncores = [1, 2]\n", "sc.toml");
  };
  sweep_spec s = two_scenarios();
  auto cells = expand(s);
  REQUIRE(cells.size() == 4);
  sweep_row r = ok_row(cells[1], 50);
  const auto j = row_json(s, r);
  CHECK(j["scenario_axis"] == "pingpong");  // "scenario" is the complete scenario the cell ran
  CHECK(j["scenario"]["workload"]["kind"] == "pingpong");
  CHECK(row_from_json(s, j).values == std::vector<std::string>{"pingpong", "2"});
  const auto columns = scenario_columns(s);
  for (const char* c : {"workload.bounces", "workload.hops", "workload.kind"})
    CHECK(std::find(columns.begin(), columns.end(), c) != columns.end());
  CHECK(csv_header(s).rfind("cell,backend,scenario,cores,", 0) == 0);
  CHECK(csv_line(r, columns).find(",,") != std::string::npos);  // forward's settings are empty in pingpong's row

  const std::string prefix = temp_prefix() + "-scenarios";
  {
    result_files f(s, prefix, result_files::mode::overwrite);
    f.append(r);
  }
  {
    result_files again(two_scenarios(), prefix, result_files::mode::resume);
    CHECK(again.rows().count("backend=sim scenario=pingpong cores=2") == 1);
    CHECK(missing_cells(cells, again.rows()).size() == 3);
  }
  sweep_spec cheaper = two_scenarios();
  apply_param(cheaper, "cost_ns=5");  // changes both scenarios, not the base
  const std::string e = resume_error(cheaper, prefix);
  CHECK(e.find("scenario pingpong: workload.cost_ns was 0, is 5") != std::string::npos);
  sweep_spec other = two_scenarios();
  apply_axis_override(other, "scenario=pingpong,pi");
  CHECK(resume_error(other, prefix).find("axis scenario was pingpong,forward, is pingpong,pi") != std::string::npos);
  remove_results(prefix);
}
