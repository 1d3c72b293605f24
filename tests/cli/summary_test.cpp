// The run summary as JSON: 64-bit checksums and hashes are hex strings (a JSON number loses bits in most readers).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "cli/summary.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

TEST_CASE("run --json: the checksum and its reference are 16 hex digits, as the text summary prints them") {
  scenario s;
  run_result r;
  r.checksum = 1216799376129376959ull;  // jq 1.6 reads this number as ...377000
  r.reference = 0xffffffffffffffffull;
  const nlohmann::json j = nlohmann::json::parse(cli::summary_json(s, r).dump());
  REQUIRE(j.at("checksum").is_string());
  CHECK(j.at("checksum") == "10e2f095f11bc2bf");
  CHECK(std::stoull(j.at("checksum").get<std::string>(), nullptr, 16) == r.checksum);
  CHECK(j.at("reference") == "ffffffffffffffff");
  CHECK(j.at("checksum_ok") == false);
}

TEST_CASE("sim --json: the event hash is a hex string too, beside the run's checksum") {
  scenario s;
  sim_result r;
  r.run.backend = "sim";
  r.run.checksum = r.run.reference = 42;
  r.event_hash = 0x8000000000000001ull;
  const nlohmann::json j = nlohmann::json::parse(cli::sim_json(s, r).dump());
  CHECK(j.at("checksum") == "000000000000002a");
  CHECK(j.at("sim").at("event_hash") == "8000000000000001");
}
