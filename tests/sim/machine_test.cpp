// Machine model files: the shipped ones load, and broken ones fail with one line naming file, line and column.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "sim/machine_model.hpp"
#include "sim/run_sim.hpp"
#include "sim/sim_platform.hpp"
#include "models/workload/workload.hpp"

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

namespace {
std::string load_error(const std::string& arg) {
  try {
    load_machine(arg);
  } catch (const machine_error& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("a folder or a missing file given as the machine is an error, not the default machine") {
  CHECK(load_error("/tmp") == "/tmp: is a folder, not a machine file");
  CHECK(load_error(TWINSCHED_SOURCE_DIR "/models/machines/") ==
        TWINSCHED_SOURCE_DIR "/models/machines/: is a folder, not a machine file");
  CHECK(load_error("missing.toml") == "missing.toml: no such machine file");
  CHECK(load_error("/nonexistent/m") == "/nonexistent/m: no such machine file");
  CHECK(load_error("").find("empty") != std::string::npos);
  const std::string unknown = load_error("no-such-machine");
  CHECK(unknown.starts_with("unknown machine 'no-such-machine': no " + stock_machine_folder() + "/no-such-machine.toml"));
}

TEST_CASE("a machine file in the working directory does not stand in for a stock name") {
  namespace fs = std::filesystem;
  CHECK(stock_machine_folder() == fs::canonical(TWINSCHED_SOURCE_DIR "/models/machines").string());
  const fs::path before = fs::current_path();
  const fs::path dir = fs::temp_directory_path() / ("twinsched-machines-" + std::to_string(::getpid()));
  fs::create_directories(dir / "models/machines");
  for (const char* n : {"default", "xeon-2s-32c", "only-here"})
    std::ofstream(dir / "models/machines" / (std::string(n) + ".toml")) << "[topology]\ncores_per_socket = 3\n";
  fs::current_path(dir);
  const machine_model d = load_machine("default");
  const machine_model x = load_machine("xeon-2s-32c");
  const std::string only = load_error("only-here");
  const auto names = machine_names();
  const machine_model by_path = load_machine("models/machines/default.toml");
  fs::current_path(before);
  fs::remove_all(dir);
  CHECK(d.cores() == 8);
  CHECK(x.cores() == 32);
  CHECK(only.starts_with("unknown machine 'only-here'"));
  CHECK(std::find(names.begin(), names.end(), "only-here") == names.end());
  CHECK(by_path.cores() == 3);  // a path is read as given
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


TEST_CASE("a machine's [kernels] give a workload's kernel parameter its calibrated cost, unless the scenario sets it") {
  machine_model m = parse_machine("[topology]\nprivate_cache_kib = 2048\n[kernels]\nleibniz_term_ns = 1.5\n", "m.toml");
  CHECK(m.private_cache_kib == 2048);
  REQUIRE(m.kernels.contains("leibniz_term"));
  CHECK(m.kernels.at("leibniz_term") == 1.5);
  const workload_info& pi = *find_workload("pi");
  REQUIRE(pi.kernels.size() == 1);
  CHECK(pi.kernels[0].param == "term_ns");
  CHECK(with_machine_kernels(pi, {}, m).real("term_ns") == 1.5);
  CHECK(with_machine_kernels(pi, {{"term_ns", 4.0}}, m).real("term_ns") == 4.0);  // the scenario's own
  CHECK(with_machine_kernels(pi, {}, parse_machine("", "m.toml")).real("term_ns") == 1.0);  // no kernels: the default

  // and the simulation charges it: pi's 4 jobs x 1000 terms on one core at 1.5 vs 3 ns a term
  scenario s;
  s.workload = "pi";
  s.workload_params = {{"jobs", std::int64_t(4)}, {"terms", std::int64_t(1000)}, {"workers", std::int64_t(1)}};
  s.sched.workers = 1;
  auto sim_ns = [&](const char* text) {
    const std::string path = std::string("kernels-") + std::to_string(std::hash<std::string>{}(text)) + ".toml";
    std::FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f);
    std::fputs(text, f);
    std::fclose(f);
    sim_options o;
    o.cores = 1;
    o.machine = path;
    sim_result r = simulate(s, o);
    std::remove(path.c_str());
    REQUIRE(r.ok());
    return r.sim_s * 1e9;
  };
  const double at_1_5 = sim_ns("[kernels]\nleibniz_term_ns = 1.5\n");
  const double at_3 = sim_ns("[kernels]\nleibniz_term_ns = 3\n");
  CHECK(at_3 - at_1_5 == doctest::Approx(4 * 1000 * 1.5).epsilon(0.01));
}

TEST_CASE("a bad [kernels] entry or private_cache_kib is an error naming file, line and column") {
  CHECK(error_of("[kernels]\nleibniz_term = 1.5\n") ==
        "m.toml:2:1: kernel cost 'leibniz_term' must be written <kernel>_ns (ns per unit)");
  CHECK(error_of("[kernels]\nleibniz_term_ns = 0\n") == "m.toml:2:19: kernel cost 'leibniz_term_ns' must be positive");
  CHECK(error_of("[topology]\nprivate_cache_kib = 1.5\n") ==
        "m.toml:2:21: 'private_cache_kib' must be a whole number from 0 to 2^30");
}

TEST_CASE("a wake-up latency spread or a timed park overshoot is 8 quantiles, each at least the one before, or an error naming file, line and column") {
  const machine_model m = parse_machine("[costs]\nwake_latency_quantiles_ns = [1, 2, 3, 4, 5, 6, 70, 800.5]\n", "m.toml");
  CHECK(m.wake_latency_quantiles == std::vector<double>{1, 2, 3, 4, 5, 6, 70, 800.5});
  CHECK(parse_machine("", "m.toml").wake_latency_quantiles.empty());
  CHECK(error_of("[costs]\nwake_latency_quantiles_ns = [1, 2, 3]\n")
            .starts_with("m.toml:2:29: 'wake_latency_quantiles_ns' must be a list of 8 numbers"));
  CHECK(error_of("[costs]\nwake_latency_quantiles_ns = 5\n").starts_with("m.toml:2:29: 'wake_latency_quantiles_ns' must be a list"));
  CHECK(error_of("[costs]\nwake_latency_quantiles_ns = [1, 2, 3, 2, 5, 6, 7, 8]\n") ==
        "m.toml:2:39: 'wake_latency_quantiles_ns': each quantile must be at least the one before");
  CHECK(error_of("[costs]\nwake_latency_quantiles_ns = [-1, 2, 3, 4, 5, 6, 7, 8]\n") ==
        "m.toml:2:30: 'wake_latency_quantiles_ns': a latency must not be negative");
  CHECK(error_of("[costs]\nwake_latency_quantiles_ns = [1, 2, 3, 4, 5, 6, 7, \"x\"]\n").starts_with("m.toml:2:"));
  const machine_model t = parse_machine("[costs]\ntimer_late_quantiles_ns = [10, 20, 30, 40, 50, 60, 70, 80]\n", "m.toml");
  CHECK(t.timer_late_quantiles == std::vector<double>{10, 20, 30, 40, 50, 60, 70, 80});
  CHECK(t.wake_latency_quantiles.empty());
  CHECK(error_of("[costs]\ntimer_late_quantiles_ns = [3, 2, 3, 4, 5, 6, 7, 8]\n") ==
        "m.toml:2:31: 'timer_late_quantiles_ns': each quantile must be at least the one before");
}

TEST_CASE("a draw from quantiles is linear between them and flat beyond the first and the last") {
  const std::vector<double> q{10, 20, 30, 40, 50, 60, 70, 80};
  CHECK(quantile_draw(q, 0.0) == 10);
  CHECK(quantile_draw(q, 0.01) == 10);
  CHECK(quantile_draw(q, 0.5) == 40);
  CHECK(quantile_draw(q, 0.375) == doctest::Approx(35));  // halfway from 25% to 50%
  CHECK(quantile_draw(q, 0.945) == doctest::Approx(65));  // halfway from 90% to 99%
  CHECK(quantile_draw(q, 0.9999) == 80);
  CHECK_THROWS_AS(quantile_draw({1, 2}, 0.5), std::logic_error);
}

TEST_SUITE_END();
