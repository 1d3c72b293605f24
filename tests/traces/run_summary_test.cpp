// The run summary: 64-bit checksums as hex strings in JSON (a JSON number loses bits in most
// readers), the text's lines, and the verdict's reasons.
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "traces/run_summary.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

TEST_CASE("run --json: the checksum and its reference are 16 hex digits, as the text summary prints them") {
  scenario s;
  run_result r;
  r.checksum = 1216799376129376959ull;  // jq 1.6 reads this number as ...377000
  r.reference = 0xffffffffffffffffull;
  const nlohmann::json j = nlohmann::json::parse(traces::summary_json(s, r).dump());
  REQUIRE(j.at("checksum").is_string());
  CHECK(j.at("checksum") == "10e2f095f11bc2bf");
  CHECK(std::stoull(j.at("checksum").get<std::string>(), nullptr, 16) == r.checksum);
  CHECK(j.at("reference") == "ffffffffffffffff");
  CHECK(j.at("checksum_ok") == false);
}

TEST_CASE("the verdict names every reason it failed, and nothing when the run is OK") {
  run_result r;
  r.checksum = r.reference = 7;
  r.messages = r.expected_messages = 10;
  CHECK(traces::failure_reasons(r).empty());
  r.checksum = 8;
  r.messages = 9;
  r.errors = {"simulation: hung", "boom", "bang"};
  CHECK(traces::failure_reasons(r) ==
        "checksum differs from the sequential reference; 9 messages processed, 10 expected; the simulation failed "
        "(errors above); 2 behaviors threw");
}

TEST_CASE("the text summary: a threads run's wall time and rate, per-worker shares, the checksum and verdict lines") {
  scenario s;
  s.name = "tiny";
  s.source = "tiny.toml";
  s.workload = "no-such-workload";  // parameters printed as given: no defaults to fill in
  s.workload_params["hops"] = std::int64_t(3);
  run_result r;
  r.messages = r.expected_messages = 2500;
  r.wall_s = 0.001;
  r.checksum = r.reference = 0x2a;
  r.per_worker.resize(2);
  r.per_worker[0].busy_ns = r.per_worker[0].idle_ns = 500;
  r.per_worker[1].steals = 4;
  std::ostringstream o;
  traces::print_summary(o, s, r);
  const std::string t = o.str();
  CHECK(t.find("scenario      tiny  (tiny.toml)\n") != std::string::npos);
  CHECK(t.find("workload      no-such-workload  hops=3\n") != std::string::npos);
  CHECK(t.find("wall time     0.001 s, 2.50 M msgs/s\n") != std::string::npos);
  CHECK(t.find("       0    50.0    50.0") != std::string::npos);
  CHECK(t.find("steals        4\n") != std::string::npos);
  CHECK(t.find("checksum      OK  (000000000000002a, reference 000000000000002a)\n") != std::string::npos);
  CHECK(t.find("verdict       OK\n") != std::string::npos);
}

TEST_CASE("parameter values as a scenario file writes them") {
  CHECK(traces::param_text(param_value{std::int64_t(42)}) == "42");
  CHECK(traces::param_text(param_value{0.5}) == "0.5");
  CHECK(traces::param_text(param_value{true}) == "true");
  CHECK(traces::param_text(param_value{std::string("x")}) == "\"x\"");
  CHECK(traces::fixed(2.0 / 3, 2) == "0.67");
  CHECK(traces::hex64(255) == "00000000000000ff");
}
