// What-if's error band from the model's measured errors: the conformal ranks, and reading them from accuracy JSON.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/config.hpp"
#include "twin/whatif.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
namespace fs = std::filesystem;

TEST_CASE("the band is the errors' ranks floor((n+1)/10) and ceil((n+1) 9/10), none below 9 errors") {
  std::vector<double> e;
  for (int i = 8; i >= 1; --i) e.push_back(i * 0.1);  // unsorted on purpose
  CHECK_FALSE(twin::conformal_band(e, 0.8));  // 9 / 10 would rank 0: no 10% point yet
  e.push_back(0.9);
  auto b = twin::conformal_band(e, 0.8);
  REQUIRE(b);
  CHECK(b->low == doctest::Approx(0.1));  // rank 1 of 9
  CHECK(b->high == doctest::Approx(0.9));  // rank 9 of 9
  CHECK(b->cases == 9);
  std::vector<double> thirty;
  for (int i = 0; i < 30; ++i) thirty.push_back(-0.5 + i * 0.05);  // -0.50, -0.45, ..., +0.95
  b = twin::conformal_band(thirty, 0.8);
  REQUIRE(b);
  CHECK(b->low == doctest::Approx(-0.40));  // rank 3
  CHECK(b->high == doctest::Approx(0.85));  // rank 28
  b = twin::conformal_band(thirty, 0.9);  // a wider coverage widens it
  REQUIRE(b);
  CHECK(b->low == doctest::Approx(-0.50));  // floor(31 x 0.05) = rank 1
  CHECK(b->high == doctest::Approx(0.95));  // ceil(31 x 0.95) = rank 30
}

TEST_CASE("model errors come from accuracy JSON: passed cases in the model's host state, by workers, as fractions") {
  const fs::path f = fs::temp_directory_path() / ("twinsched-whatif-errors-" + std::to_string(::getpid()) + ".json");
  std::ofstream(f) << R"({"cases": [
    {"workers": 1, "ok": true, "host_moved": false, "error": {"makespan_ms": 12.5}},
    {"workers": 2, "ok": true, "host_moved": false, "error": {"makespan_ms": -40}},
    {"workers": 2, "ok": false, "host_moved": false, "error": {"makespan_ms": 300}},
    {"workers": 2, "ok": true, "host_moved": true, "error": {"makespan_ms": 500}},
    {"workers": 2, "ok": true, "host_moved": false, "error": {"makespan_ms": null}}
  ]})";
  const twin::model_errors m = twin::read_model_errors({f.string()});
  REQUIRE(m.by_workers.size() == 2);
  CHECK(m.by_workers.at(1) == std::vector<double>{0.125});
  CHECK(m.by_workers.at(2) == std::vector<double>{-0.4});
  CHECK(m.source == f.string());
  std::ofstream(f) << R"({"runs": 3})";
  CHECK_THROWS_AS(twin::read_model_errors({f.string()}), config_error);
  std::ofstream(f) << "not json";
  CHECK_THROWS_AS(twin::read_model_errors({f.string()}), config_error);
  fs::remove(f);
}
