// The accuracy matrix's cases: scenarios x policies x workers, the combinations the configuration refuses skipped, bad input refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "scenarios/scenario_loader.hpp"
#include "twin/accuracy_matrix.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::twin;

namespace {

std::vector<std::string> names(const std::vector<accuracy_case>& cases) {
  std::vector<std::string> v;
  for (const auto& c : cases) v.push_back(case_name(c.s));
  return v;
}

/// build_matrix's error message, or "" if it built.
std::string refused(const matrix_request& r, unsigned host_cores) {
  std::ostringstream log;
  try {
    build_matrix(r, host_cores, log);
  } catch (const scenario_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("build_matrix: scenario by scenario, then policy, then workers, the request's seed and parameters, untraced") {
  matrix_request r;
  r.scenarios = {"forward"};
  r.policies = {"stealing", "shared-queue"};
  r.workers = {1, 2};
  r.params = {"hops=200"};
  r.seed = 7;
  std::ostringstream log;
  const auto cases = build_matrix(r, 2, log);
  CHECK(names(cases) == std::vector<std::string>{"forward stealing 1w", "forward stealing 2w", "forward shared-queue 1w",
                                                 "forward shared-queue 2w"});
  for (const auto& c : cases) {
    CHECK(c.s.seed == 7);
    CHECK(std::get<std::int64_t>(c.s.workload_params.at("hops")) == 200);
    CHECK(c.s.trace == trace_level::off);
    CHECK(c.ok());
  }
  CHECK(log.str().empty());
}

TEST_CASE("build_matrix: a combination the configuration refuses is skipped with one line per policy and reason") {
  matrix_request r;
  r.scenarios = {"forward"};
  r.policies = {"donation", "stealing"};
  r.workers = {1, 2};
  std::ostringstream log;
  const auto cases = build_matrix(r, 4, log);
  CHECK(names(cases) == std::vector<std::string>{"forward stealing 1w", "forward stealing 2w"});
  const std::string text = log.str();
  CHECK(text.starts_with("accuracy: skipped, does not apply: forward donation (workers 1, 2): donation needs a "
                              "workload with a group of equal actors"));
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
}

TEST_CASE("build_matrix: the default worker counts are 1 and 2, those this machine has") {
  matrix_request r;
  r.scenarios = {"forward"};
  r.policies = {"stealing"};
  std::ostringstream log;
  CHECK(names(build_matrix(r, 8, log)) == std::vector<std::string>{"forward stealing 1w", "forward stealing 2w"});
  CHECK(log.str().empty());
  CHECK(names(build_matrix(r, 1, log)) == std::vector<std::string>{"forward stealing 1w"});
  CHECK(log.str() == "accuracy: 2 workers left out: this machine has 1 core\n");
}

TEST_CASE("build_matrix: bad input is a command-line error, the worker count checked before any scenario loads") {
  matrix_request r;
  r.scenarios = {"nosuch"};
  r.workers = {1, 3};
  CHECK(refused(r, 2) == "command line: --workers 3: this machine has 2 cores, and real runs compare with one modeled "
                         "core per worker (at most 2)");
  r.workers = {1};
  CHECK(refused(r, 2).starts_with("command line: --scenario nosuch: no such stock scenario"));
  r.scenarios = {"forward"};
  r.params = {"nosuch=1"};
  CHECK(refused(r, 2).find("--param nosuch=1") != std::string::npos);
  r.params.clear();
  r.policies = {"donation"};
  CHECK(refused(r, 2).starts_with("command line: no case to run: forward donation (workers 1): donation needs"));
}

TEST_CASE("stock_accuracy_files: the folder's scenario files except the sim_ ones (the simulator's findings)") {
  const auto dir = std::filesystem::temp_directory_path() / ("twin_matrix_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  for (const char* f : {"b.toml", "a.toml", "sim_big.toml", "notes.txt"}) std::ofstream(dir / f) << "";
  const auto files = stock_accuracy_files(dir.string());
  std::filesystem::remove_all(dir);
  REQUIRE(files.size() == 2);
  CHECK(files[0].ends_with("/a.toml"));
  CHECK(files[1].ends_with("/b.toml"));
}
