// Machine model files: the shipped ones load, and broken ones fail with one line naming file, line and column.
#include <doctest/doctest.h>

#include <string>

#include "sim/machine_model.hpp"
#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {
std::string error_of(const std::string& text) {
  try {
    parse_machine(text, "m.toml");
  } catch (const machine_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("every shipped machine loads, and the embedded default matches its file") {
  for (const auto& name : machine_names()) {
    CAPTURE(name);
    machine_model m = load_machine(std::string(TWINSCHED_SOURCE_DIR) + "/models/machines/" + name + ".toml");
    CHECK(m.name == name);
    CHECK(m.cores() >= 1);
    CHECK(m.line_same_socket > 0);
    CHECK(m.wake_latency > 0);
  }
  machine_model d = load_machine("default");
  CHECK(d.cores() == 8);
  machine_model x = load_machine(std::string(TWINSCHED_SOURCE_DIR) + "/models/machines/xeon-2s-32c.toml");
  CHECK(x.cores() == 32);
  CHECK(x.sockets == 2);
  CHECK(x.line_cross_socket > x.line_same_socket);
}

TEST_CASE("costs are read in cycles or nanoseconds") {
  machine_model m = parse_machine("[topology]\nclock_ghz = 2.0\n[costs]\natomic_rmw_cycles = 40\npark_ns = 700\n", "m.toml");
  CHECK(m.atomic_rmw == doctest::Approx(20.0));
  CHECK(m.park == doctest::Approx(700.0));
}

TEST_CASE("an unknown key is an error naming file, line and column") {
  CHECK(error_of("name = \"x\"\n[costs]\natomic_rmw_cycles = 1\nbogus_ns = 3\n").starts_with("m.toml:4:1: unknown cost 'bogus_ns'"));
  CHECK(error_of("colour = 1\n").starts_with("m.toml:1:1: unknown key 'colour'"));
  CHECK(error_of("[topology]\nthreads = 4\n").starts_with("m.toml:2:1: unknown key 'topology.threads'"));
}

TEST_CASE("negative costs, zero cores and doubled units are errors") {
  CHECK(error_of("[costs]\npark_ns = -1\n").starts_with("m.toml:2:11: cost 'park_ns' must not be negative"));
  CHECK(error_of("[topology]\ncores_per_socket = 0\n").starts_with("m.toml:2:20: 'cores_per_socket' must be a whole number"));
  CHECK(error_of("[topology]\nsockets = 0\n").starts_with("m.toml:2:"));
  CHECK(error_of("[costs]\npark_ns = 1\npark_cycles = 2\n").find("cost 'park' given twice") != std::string::npos);
  CHECK(error_of("[costs]\npark_ns = \"slow\"\n").starts_with("m.toml:2:11: 'park_ns' must be a number"));
  CHECK(error_of("name = \n").starts_with("m.toml:1:"));  // a TOML syntax error keeps toml++'s position
  CHECK(error_of("[topology]\ncores_per_socket = 0\n").find('\n') == std::string::npos);
}

TEST_CASE("an unknown machine name lists the known ones") {
  try {
    load_machine("no-such-machine");
    FAIL("no error");
  } catch (const machine_error& e) {
    CHECK(std::string(e.what()).find("known: ") != std::string::npos);
    CHECK(std::string(e.what()).find("default") != std::string::npos);
  }
}

TEST_CASE("the cache model tells every modeled core apart, up to its limit (no aliasing at 64)") {
  sim_detail::core_set s;
  s.add(0);
  CHECK(s.has(0));
  CHECK_FALSE(s.has(64));  // one 64-bit mask aliased core 64 with core 0
  CHECK_FALSE(s.any_but(0));
  s.add(sim_detail::core_set::max_cores - 1);
  CHECK(s.has(sim_detail::core_set::max_cores - 1));
  CHECK(s.any_but(0));
  s.only(130);
  CHECK(s.has(130));
  CHECK_FALSE(s.has(0));
  CHECK_FALSE(s.has(2));
  CHECK_FALSE(s.any_but(130));
}

TEST_CASE("a simulation of more cores than the cache model tracks is refused with a clear error") {
  scenario s;
  s.workload = "pingpong";
  sim_options o;
  o.cores = sim_detail::core_set::max_cores + 1;
  CHECK_THROWS_WITH_AS(simulate(s, o), "cores: the simulator's cache model tracks at most 256 modeled cores, not 257",
                       config_error);
}

TEST_SUITE_END();
