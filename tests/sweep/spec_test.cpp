// Sweep files: the grid expands in order, overrides apply, and every bad axis or value fails in one file:line:col line.
#include <doctest/doctest.h>

#include <string>

#include "scenarios/scenario_loader.hpp"
#include "sweep/effective_scenario.hpp"
#include "sweep/sweep_spec.hpp"
#include "one_line_error.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

namespace {

std::string error_of(std::string_view text) {
  try {
    expand(load_sweep_text(text, "bad.toml"));
  } catch (const scenario_error& e) {
    return e.what();
  }
  return "(no error)";
}

void check_error(std::string_view text, const std::string& where, const std::string& phrase) {
  testing::check_one_line_error(error_of(text), where, phrase);
}

}  // namespace

TEST_CASE("a sweep's cells are every combination of its axes, the last axis fastest") {
  sweep_spec s = load_sweep_text("[axes]\npolicy = [\"stealing\", \"sharing\"]\ncores = [1, 2, 4]\n", "grid.toml");
  CHECK(s.name == "grid");
  auto cells = expand(s);
  REQUIRE(cells.size() == 6);
  CHECK(cells[0].key == "backend=sim policy=stealing cores=1");
  CHECK(cells[1].key == "backend=sim policy=stealing cores=2");
  CHECK(cells[3].key == "backend=sim policy=sharing cores=1");
  CHECK(cells[5].s.sched.policy == "sharing");
  CHECK(cells[5].o.cores == 4);
  CHECK(cells[5].s.sched.workers == 4);  // one worker per core without a workers axis
  for (std::size_t i = 0; i < cells.size(); ++i) CHECK(cells[i].index == i);
}

TEST_CASE("workload parameters, seeds and both backends are axes too") {
  sweep_spec s = load_sweep_text(
      "backend = \"both\"\n[axes]\nworkload.hops = [10, 20]\nseed = [1, 2]\nworkers = 3\n[sim]\ntime_limit = 5\n", "p.toml");
  auto cells = expand(s);
  REQUIRE(cells.size() == 8);
  CHECK(cells[0].backend == "sim");
  CHECK(cells[4].backend == "real");
  CHECK(std::get<std::int64_t>(cells[2].s.workload_params.at("hops")) == 20);
  CHECK(cells[3].s.seed == 2);
  CHECK(cells[3].s.sched.workers == 3);
  CHECK(cells[3].o.time_limit_s == 5);
}

TEST_CASE("--axis replaces an axis or adds one, and checks its values") {
  sweep_spec s = load_sweep_text("[axes]\ncores = [1, 2]\n", "o.toml");
  apply_axis_override(s, "cores=8");
  apply_axis_override(s, "idle=park,backoff");
  auto cells = expand(s);
  REQUIRE(cells.size() == 2);
  CHECK(cells[1].key == "backend=sim cores=8 idle=backoff");
  CHECK_THROWS_WITH_AS(apply_axis_override(s, "idle=nap"), doctest::Contains("--axis idle=nap: unknown idle strategy 'nap'"),
                       scenario_error);
  CHECK_THROWS_WITH_AS(apply_axis_override(s, "colour=red"), doctest::Contains("unknown axis 'colour'"), scenario_error);
}

TEST_CASE("--param replaces a value the sweep file fixes, goes into the base scenario otherwise, and is refused for an axis") {
  sweep_spec s = load_sweep_text("[axes]\ncores = [1, 2]\nworkload.tokens = 50\nworkload.hops = [10, 20]\n", "p.toml");
  apply_param(s, "tokens=7");
  auto cells = expand(s);
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].key == "backend=sim cores=1 workload.tokens=7 workload.hops=10");
  CHECK(std::get<std::int64_t>(cells[3].s.workload_params.at("tokens")) == 7);
  CHECK(cells[3].effective["workload"]["tokens"] == 7);
  CHECK(s.params == std::vector<std::string>{"tokens=7"});
  CHECK_THROWS_WITH_AS(apply_param(s, "hops=5"),
                       doctest::Contains("--param hops=5: workload.hops is an axis of this sweep (10, 20 at p.toml:4)"),
                       scenario_error);
  CHECK_THROWS_WITH_AS(apply_param(s, "nope=1"), doctest::Contains("unknown parameter 'nope'"), scenario_error);
  apply_axis_override(s, "workload.tokens=3");
  CHECK_THROWS_WITH_AS(apply_param(s, "tokens=8"), doctest::Contains("--axis workload.tokens sets it too"), scenario_error);

  sweep_spec base = load_sweep_text("[axes]\ncores = [1, 2]\n", "b.toml");
  apply_param(base, "tokens=9");
  CHECK(expand(base)[1].effective["workload"]["tokens"] == 9);
}

TEST_CASE("a cell's effective scenario holds every setting it runs with") {
  sweep_spec s = load_sweep_text("backend = \"both\"\n[axes]\npolicy = [\"sharing\"]\nseed = 4\n[sim]\ntime_limit = 5\n", "e.toml");
  auto cells = expand(s);
  REQUIRE(cells.size() == 2);
  const auto& e = cells[0].effective;
  CHECK(e["scheduler"]["policy"] == "sharing");
  CHECK(e["seed"] == 4);
  CHECK(e["workload"]["kind"] == "forward");
  CHECK(e["workload"].contains("hops"));  // defaults filled
  CHECK(e["scheduler"]["idle"]["strategy"] == "backoff");
  CHECK(e["machine"] == "default");
  CHECK(e["sim"]["time_limit_s"] == 5.0);
  CHECK(e["sim"]["cores"].get<int>() > 0);  // no cores axis: the machine's
  CHECK_FALSE(cells[1].effective.contains("sim"));  // a real cell
  for (auto& [name, v] : leaves(e)) CHECK_FALSE(v.is_null());
}

TEST_CASE("an unknown axis, a bad value and an impossible cell fail at their place in the file") {
  check_error("[axes]\ncolour = [1]\n", "2:1", "unknown axis 'colour'");
  check_error("[axes]\npolicy = [\"stealing\", \"nope\"]\n", "2:23", "axes.policy: unknown policy 'nope'");
  check_error("[axes]\ncores = [1, 0]\n", "2:13", "axes.cores: cores takes a whole number from 1 to 256, not '0'");
  check_error("[axes]\nworkload.hops = [\"x\"]\n", "2:18", "axes.workload.hops");
  check_error("[axes]\nworkload.nope = [1]\n", "2:18", "unknown parameter 'nope'");
  check_error("[axes]\nmachine = [\"no-such-machine\"]\n", "2:12", "axes.machine");
  check_error("[axes]\ncores = [1, 1]\n", "2:13", "listed twice");
  check_error("[axes]\ncores = []\n", "2:9", "at least one value");
  check_error("backend = \"gpu\"\n[axes]\ncores = 1\n", "1:11", "unknown backend 'gpu'");
  check_error("colour = 1\n[axes]\ncores = 1\n", "1:1", "unknown key 'colour'");
  check_error("scenario = \"missing.toml\"\n[axes]\ncores = 1\n", "1:12", "not found");
  check_error("name = \"x\"\n", "1:1", "needs an [axes] table");
  check_error("[axes]\npolicy = [\"donation\"]\n", "1:1", "cannot run");  // forward has no groups
}

TEST_CASE("a scenario axis starts each cell from its own scenario, and a cell that cannot run is skipped only when asked") {
  const std::string grid = "[axes]\nscenario = [\"pingpong\", \"pool\"]\npolicy = [\"stealing\", \"donation\"]\n";
  check_error(grid, "1:1", "the cell backend=sim scenario=pingpong policy=donation cannot run");  // pingpong has no groups
  sweep_spec s = load_sweep_text("skip_impossible = true\n" + grid, "s.toml");
  CHECK(s.skip_impossible);
  std::vector<skipped_cell> skipped;
  auto cells = expand(s, &skipped);
  REQUIRE(cells.size() == 3);
  CHECK(cells[0].key == "backend=sim scenario=pingpong policy=stealing");
  CHECK(cells[0].s.workload == "pingpong");
  CHECK(cells[1].key == "backend=sim scenario=pool policy=stealing");
  CHECK(cells[2].s.workload == "pool");
  CHECK(cells[2].s.sched.policy == "donation");
  CHECK(cells[2].effective["workload"]["kind"] == "pool");
  CHECK(cells[2].index == 3);  // the grid's position: the skipped cell 1 does not renumber the rest
  REQUIRE(skipped.size() == 1);
  CHECK(skipped[0].key == "backend=sim scenario=pingpong policy=donation");
  CHECK(skipped[0].reason.find("donation needs a workload with a group") != std::string::npos);
  CHECK(skipped[0].values == std::vector<std::string>{"pingpong", "donation"});
}

TEST_CASE("a scenario axis resolves stock names as run does and paths from the sweep file's folder") {
  const std::string in_sweeps = std::string(TWINSCHED_SOURCE_DIR) + "/scenarios/sweeps/x.toml";
  sweep_spec s = load_sweep_text("[axes]\nseed = [1, 2]\nscenario = [\"../pi.toml\", \"forward\"]\n", in_sweeps);
  REQUIRE(s.axes.size() == 2);
  CHECK(s.axes[0].name == "seed");  // the file's order, though the scenario axis was read first
  auto cells = expand(s);
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].key == "backend=sim seed=1 scenario=../pi.toml");
  CHECK(cells[0].s.workload == "pi");
  CHECK(cells[1].s.workload == "forward");
  CHECK(cells[2].s.seed == 2);
  const auto starts = start_scenarios(s);
  REQUIRE(starts.size() == 2);
  CHECK(starts[0].first == "../pi.toml");
  CHECK(starts[1].second->workload == "forward");
  // --axis replaces the scenarios; a relative path there is the working directory's
  apply_axis_override(s, "scenario=pingpong");
  CHECK(expand(s)[0].s.workload == "pingpong");
  CHECK(s.axis_scenarios.size() == 1);
  CHECK_THROWS_WITH_AS(apply_axis_override(s, "scenario=no-such"), doctest::Contains("no such stock scenario"), scenario_error);
}

TEST_CASE("with a scenario axis, workload axes and --param must fit every scenario, and a base scenario is refused") {
  check_error("[axes]\nscenario = [\"pingpong\", \"pool\"]\nworkload.bounces = [10, 20]\n", "3:21",
              "axes.workload.bounces: scenario pool: unknown parameter 'bounces'");
  check_error("[axes]\nworkload.bounces = 10\nscenario = [\"pool\"]\n", "2:20", "scenario pool: unknown parameter 'bounces'");
  check_error("[axes]\nscenario = [\"nope\"]\n", "2:13", "axes.scenario: nope: no such stock scenario");
  check_error("scenario = \"x.toml\"\n[axes]\nscenario = [\"pool\"]\n", "1:12", "give one or the other");
  sweep_spec s = load_sweep_text("[axes]\nscenario = [\"pingpong\", \"forward\"]\n", "p.toml");
  CHECK_THROWS_WITH_AS(apply_param(s, "bounces=5"), doctest::Contains("--param bounces=5: scenario forward: unknown parameter"),
                       scenario_error);
  apply_param(s, "cost_ns=7");  // both have it
  auto cells = expand(s);
  REQUIRE(cells.size() == 2);
  CHECK(cells[0].effective["workload"]["cost_ns"] == 7);
  CHECK(cells[1].effective["workload"]["cost_ns"] == 7);
  // an axis given after the scenario axis changed is checked when the cells are made
  sweep_spec t = load_sweep_text("[axes]\nworkload.bounces = [10]\nscenario = [\"pingpong\"]\n", "t.toml");
  apply_axis_override(t, "scenario=forward");
  CHECK_THROWS_WITH_AS(expand(t), doctest::Contains("t.toml:2:10: the cell backend=sim workload.bounces=10 scenario=forward"),
                       scenario_error);
}
