// The scenario loader: shipped files load, overrides apply, and every bad input fails with file:line:col.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include "scenarios/scenario_loader.hpp"
#include "one_line_error.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {

const std::string scenario_dir = TWINSCHED_SOURCE_DIR "/scenarios";

/// A workload with a real and a boolean parameter, which the built-in ones may lack.
const bool test_workload_registered = register_workload(
    {"test-knobs", "a workload that only exists in this test",
     {{"ratio", 0.5, "a real in [0.25, inf)", 0.25}, {"verbose", false, "a flag", 0}, {"label", std::string("x"), "", 0}},
     nullptr});

std::string error_of(std::string_view text) {
  try {
    load_scenario_text(text, "bad.toml");
  } catch (const scenario_error& e) {
    return e.what();
  }
  return "(no error)";
}

/// The error is one line, starts with "bad.toml:LINE:COL: " and contains `phrase`.
void check_error(std::string_view text, const std::string& where, const std::string& phrase) {
  testing::check_one_line_error(error_of(text), where, phrase);
}

std::string joined(const std::vector<std::string>& v) {
  std::string r;
  for (const auto& s : v) r += (r.empty() ? "" : ", ") + s;
  return r;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// "actors, tokens, ..." in the order the forward workload declares them.
std::string forward_params() {
  std::vector<std::string> names;
  for (const auto& p : find_workload("forward")->params) names.push_back(p.name);
  return joined(names);
}

constexpr const char* forward_head = "[workload]\nkind = \"forward\"\n";

}  // namespace

// ---- good files ---------------------------------------------------------------------------

TEST_CASE("every shipped scenario file loads") {
  const auto files = list_scenario_files(scenario_dir);
  REQUIRE(files.size() >= 3);
  for (const auto& f : files) {
    CAPTURE(f);
    const scenario s = load_scenario_file(f);
    CHECK(s.source == f);
    CHECK(!s.description.empty());
    CHECK(s.machine == "default");
  }
}

TEST_CASE("forward.toml holds the documented workload and scheduler") {
  const scenario s = load_scenario_file(scenario_dir + "/forward.toml");
  CHECK(s.name == "forward");
  CHECK(s.seed == 42);
  CHECK(s.workload == "forward");
  CHECK(std::get<std::int64_t>(s.workload_params.at("actors")) == 1000);
  CHECK(std::get<std::int64_t>(s.workload_params.at("tokens")) == 200);
  CHECK(std::get<std::int64_t>(s.workload_params.at("hops")) == 100000);
  CHECK(std::get<std::int64_t>(s.workload_params.at("cost_ns")) == 0);
  CHECK(s.sched.policy == "stealing");
  CHECK(s.sched.workers == 2);
  CHECK(s.sched.burst == 16);
  CHECK(s.sched.idle.strategy == "backoff");
  CHECK(s.sched.idle.min_park_ns == 10'000);
  CHECK(s.sched.idle.max_park_ns == 1'000'000);
}

TEST_CASE("pingpong.toml and pi.toml hold their workload parameters") {
  const scenario p = load_scenario_file(scenario_dir + "/pingpong.toml");
  CHECK(p.workload == "pingpong");
  CHECK(std::get<std::int64_t>(p.workload_params.at("pairs")) == 1);
  CHECK(std::get<std::int64_t>(p.workload_params.at("bounces")) == 1000000);
  const scenario pi = load_scenario_file(scenario_dir + "/pi.toml");
  CHECK(pi.workload == "pi");
  CHECK(std::get<std::int64_t>(pi.workload_params.at("jobs")) == 100);
  CHECK(std::get<std::int64_t>(pi.workload_params.at("terms")) == 1000000);
  CHECK(std::get<std::int64_t>(pi.workload_params.at("workers")) == 8);
}

TEST_CASE("the embedded default scenario is forward.toml, byte for byte") {
  CHECK(default_scenario_text() == read_file(scenario_dir + "/forward.toml"));
  const scenario s = load_default_scenario();
  CHECK(s.source == "<embedded scenarios/forward.toml>");
  CHECK(s.name == "forward");
  CHECK(s.workload == "forward");
}

TEST_CASE("a file with only [workload] kind gets every default") {
  const scenario s = load_scenario_text(forward_head, "minimal.toml");
  const scenario defaults;
  const scheduler_config d;
  CHECK(s.name == "minimal");  // the file's stem when the file has no name
  CHECK(s.seed == defaults.seed);
  CHECK(s.machine == defaults.machine);
  CHECK(s.trace == defaults.trace);
  CHECK(s.workload_params.empty());  // defaults are filled at run time, not here
  CHECK(s.sched.policy == d.policy);
  CHECK(s.sched.workers == d.workers);
  CHECK(s.sched.burst == d.burst);
  CHECK(s.sched.fifo == d.fifo);
  CHECK(s.sched.steal == d.steal);
  CHECK(s.sched.idle.strategy == d.idle.strategy);
  CHECK(s.sched.idle.sleep_ns == d.idle.sleep_ns);
  CHECK(s.sched.retire_after_ns == d.retire_after_ns);
}

TEST_CASE("every scheduler key is read, microseconds become nanoseconds") {
  const scenario s = load_scenario_text(
      std::string(forward_head) +
          "[scheduler]\npolicy = \"shared-queue\"\nworkers = 3\nburst = 4\nfifo = true\nsteal = \"half\"\n"
          "donate_threshold = 5\noverload_after = 6\nmin_workers = 2\nmax_workers = 7\nretire_after_us = 8\n"
          "[scheduler.idle]\nstrategy = \"sleep\"\nmax_spins = 0\nmax_yields = 9\nmin_park_us = 20\n"
          "max_park_us = 30\nsleep_us = 40\n",
      "all.toml");
  CHECK(s.sched.policy == "shared-queue");
  CHECK(s.sched.workers == 3);
  CHECK(s.sched.burst == 4);
  CHECK(s.sched.fifo);
  CHECK(s.sched.steal == "half");
  CHECK(s.sched.donate_threshold == 5);
  CHECK(s.sched.overload_after == 6);
  CHECK(s.sched.min_workers == 2);
  CHECK(s.sched.max_workers == 7);
  CHECK(s.sched.retire_after_ns == 8'000);
  CHECK(s.sched.idle.strategy == "sleep");
  CHECK(s.sched.idle.max_spins == 0);
  CHECK(s.sched.idle.max_yields == 9);
  CHECK(s.sched.idle.min_park_ns == 20'000);
  CHECK(s.sched.idle.max_park_ns == 30'000);
  CHECK(s.sched.idle.sleep_ns == 40'000);
}

TEST_CASE("an integer is accepted where a workload expects a real") {
  const scenario s = load_scenario_text("[workload]\nkind = \"test-knobs\"\nratio = 2\nverbose = true\n", "k.toml");
  CHECK(std::get<double>(s.workload_params.at("ratio")) == 2.0);
  CHECK(std::get<bool>(s.workload_params.at("verbose")));
}

TEST_CASE("a --param override replaces a file value with the same checks") {
  scenario s = load_scenario_file(scenario_dir + "/forward.toml");
  apply_param_override(s, "hops=1000");
  CHECK(std::get<std::int64_t>(s.workload_params.at("hops")) == 1000);
  scenario k = load_scenario_text("[workload]\nkind = \"test-knobs\"\n", "k.toml");
  apply_param_override(k, "ratio=1.5");
  apply_param_override(k, "label=bare words");
  apply_param_override(k, "verbose=true");
  CHECK(std::get<double>(k.workload_params.at("ratio")) == 1.5);
  CHECK(std::get<std::string>(k.workload_params.at("label")) == "bare words");
  CHECK(std::get<bool>(k.workload_params.at("verbose")));
}

TEST_CASE("list_scenario_files returns sorted .toml paths, and nothing for a missing directory") {
  const auto files = list_scenario_files(scenario_dir);
  CHECK(std::is_sorted(files.begin(), files.end()));
  for (const auto& f : files) CHECK(f.size() > 5);
  for (const auto& f : files) CHECK(f.substr(f.size() - 5) == ".toml");
  CHECK(list_scenario_files("/nonexistent/twinsched/scenarios").empty());
}

/// Runs `f` with the working directory a fresh folder holding scenarios/pingpong.toml and
/// forward.toml that do not load: what a name resolves to must not change.
template <class F>
void in_folder_with_shadows(F f) {
  namespace fs = std::filesystem;
  const fs::path before = fs::current_path();
  const fs::path dir = fs::temp_directory_path() / ("twinsched-loader-" + std::to_string(::getpid()));
  fs::create_directories(dir / "scenarios");
  for (const char* n : {"scenarios/pingpong.toml", "pingpong.toml", "forward.toml"}) std::ofstream(dir / n) << "not = [a scenario\n";
  fs::current_path(dir);
  try {
    f();
  } catch (...) {
    fs::current_path(before);
    fs::remove_all(dir);
    throw;
  }
  fs::current_path(before);
  fs::remove_all(dir);
}

TEST_CASE("a stock name loads the stock folder's file, whatever the working directory holds") {
  CHECK(stock_scenario_folder() == std::filesystem::canonical(scenario_dir).string());
  const auto names = stock_scenario_names();
  CHECK(std::find(names.begin(), names.end(), "pingpong") != names.end());
  CHECK(std::find(names.begin(), names.end(), "forward") != names.end());
  in_folder_with_shadows([&] {
    const scenario p = load_scenario("pingpong");
    CHECK(p.workload == "pingpong");
    CHECK(p.source == stock_scenario_folder() + "/pingpong.toml");
    CHECK(load_scenario("forward").workload == "forward");
    CHECK_THROWS_AS(load_scenario("pingpong.toml"), scenario_error);  // a path: the broken file here
    CHECK_THROWS_AS(load_scenario("./pingpong.toml"), scenario_error);
  });
}

TEST_CASE("a folder, a missing file or an unknown name is an error naming what was looked for") {
  const auto error = [](const std::string& arg) {
    try {
      load_scenario(arg);
    } catch (const scenario_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error(scenario_dir) == scenario_dir + ": is a folder, not a scenario file");
  CHECK(error("/tmp") == "/tmp: is a folder, not a scenario file");
  CHECK(error("missing.toml") == "missing.toml: cannot open scenario file (No such file or directory)");
  const std::string unknown = error("no-such-scenario");
  CHECK(unknown.starts_with("no-such-scenario: no such stock scenario: no " + stock_scenario_folder() +
                            "/no-such-scenario.toml (stock: "));
  CHECK(unknown.find("pingpong") != std::string::npos);
  in_folder_with_shadows([&] {
    // a file of that name here is not read, but the error says how to name it
    std::ofstream("myscenario") << "name = \"x\"\n";
    CHECK(error("myscenario").find("for the file in this folder, write ./myscenario") != std::string::npos);
  });
}

// ---- bad input: one case each, exact position and key phrase -------------------------------

TEST_CASE("a missing file names the file and the system's reason") {
  const std::string path = "/nonexistent/twinsched/missing.toml";
  try {
    load_scenario_file(path);
    FAIL("no error");
  } catch (const scenario_error& e) {
    CHECK(std::string(e.what()) == path + ": cannot open scenario file (No such file or directory)");
    CHECK(e.file() == path);
    CHECK(e.line() == 0);
  }
}

TEST_CASE("a directory given as the scenario file is a read error") {
  try {
    load_scenario_file(scenario_dir);
    FAIL("no error");
  } catch (const scenario_error& e) {
    CHECK(std::string(e.what()) == scenario_dir + ": cannot read scenario file (Is a directory)");
  }
}

TEST_CASE("an array of [[workload]] tables is a type error") {
  check_error("[[workload]]\nkind = \"forward\"\n", "1:1", "workload: expected table, got array");
}

TEST_CASE("a TOML syntax error points where the parser stopped") {
  check_error("name = \"unterminated\n[workload]\nkind = \"forward\"\n", "1:21", "string");
}

TEST_CASE("a duplicate key is a syntax error at the second one") {
  check_error("seed = 1\nseed = 2\n[workload]\nkind = \"forward\"\n", "2:8", "cannot redefine existing integer 'seed'");
}

TEST_CASE("an integer beyond 64 bits is a syntax error") {
  check_error("seed = 99999999999999999999\n[workload]\nkind = \"forward\"\n", "1:28", "'99999999999999999999' is not representable in 64 bits");
}

TEST_CASE("an unknown top-level key is named with the valid keys") {
  check_error("nmae = \"x\"\n[workload]\nkind = \"forward\"\n", "1:1",
              "unknown key 'nmae' in the top level (did you mean 'name'?); valid keys: name, description, seed");
}

TEST_CASE("an unknown key in [scheduler] is named with the valid keys") {
  check_error(std::string(forward_head) + "[scheduler]\nwrokers = 4\n", "4:1",
              "unknown key 'wrokers' in [scheduler] (did you mean 'workers'?); valid keys: policy, workers");
}

TEST_CASE("an unknown key in [scheduler.idle] is named with the valid keys") {
  check_error(std::string(forward_head) + "[scheduler]\nworkers = 2\n[scheduler.idle]\nspins = 3\n", "6:1",
              "unknown key 'spins' in [scheduler.idle]; valid keys: strategy, max_spins");
}

TEST_CASE("a workload key that is not one of its parameters lists the parameters") {
  check_error(std::string(forward_head) + "actor = 5\n", "3:1",
              "unknown key 'actor' in [workload] for kind \"forward\" (did you mean 'actors'?); "
              "valid keys: kind, " + forward_params());
}

TEST_CASE("the first unknown key in the file is the one reported") {
  check_error("zzz = 1\naaa = 2\n[workload]\nkind = \"forward\"\n", "1:1", "unknown key 'zzz'");
}

TEST_CASE("a string where a scheduler count belongs is a type error at the value") {
  check_error(std::string(forward_head) + "[scheduler]\nworkers = \"two\"\n", "4:11",
              "scheduler.workers: expected integer, got string");
}

TEST_CASE("a string where a workload count belongs is a type error at the value") {
  check_error(std::string(forward_head) + "tokens = \"many\"\n", "3:10", "workload.tokens: expected integer, got string");
}

TEST_CASE("a float where a workload integer belongs is a type error") {
  check_error(std::string(forward_head) + "hops = 1.5\n", "3:8", "workload.hops: expected integer, got float");
}

TEST_CASE("a boolean where a workload real belongs is a type error") {
  check_error("[workload]\nkind = \"test-knobs\"\nratio = true\n", "3:9", "workload.ratio: expected number, got boolean");
}

TEST_CASE("an integer where a string belongs is a type error") {
  check_error("name = 3\n[workload]\nkind = \"forward\"\n", "1:8", "name: expected string, got integer");
}

TEST_CASE("a boolean knob given as a string is a type error") {
  check_error(std::string(forward_head) + "[scheduler]\nfifo = \"yes\"\n", "4:8", "scheduler.fifo: expected boolean, got string");
}

TEST_CASE("[workload] given as a value instead of a table is a type error") {
  check_error("workload = \"forward\"\n", "1:12", "workload: expected table, got string");
}

TEST_CASE("a missing [workload] table is reported at the start of the file") {
  check_error("name = \"x\"\n", "1:1", "missing [workload] table");
}

TEST_CASE("a [workload] without kind is reported at the table") {
  check_error("name = \"x\"\n[workload]\nactors = 5\n", "2:1", "workload.kind is required (known: ");
}

TEST_CASE("an unknown policy lists the known policies") {
  check_error(std::string(forward_head) + "[scheduler]\npolicy = \"steeling\"\n", "4:10",
              "unknown policy 'steeling' (did you mean 'stealing'?); valid: " + joined(policy_names()));
}

TEST_CASE("an unknown idle strategy lists the known strategies") {
  check_error(std::string(forward_head) + "[scheduler.idle]\nstrategy = \"nap\"\n", "4:12",
              "unknown idle strategy 'nap'; valid: " + joined(idle_names()));
}

TEST_CASE("an unknown trace level lists the known levels") {
  check_error("trace = \"all\"\n[workload]\nkind = \"forward\"\n", "1:9",
              "unknown trace level 'all'; valid: " + joined(trace_level_names()));
}

TEST_CASE("the trace key reads each level by the name the one parser and every printout use") {
  for (const std::string& name : trace_level_names()) {
    const scenario s = load_scenario_text("trace = \"" + name + "\"\n" + forward_head, "t.toml");
    CHECK(level_name(s.trace) == name);
    CHECK(level_from_name(name) == s.trace);
  }
  CHECK(load_scenario_text("trace = \"decisions\"\n" + std::string(forward_head), "t.toml").trace == trace_level::decisions);
  CHECK_THROWS_WITH_AS(level_from_name("all"), "unknown trace level 'all' (known: off, decisions, full)",
                       std::invalid_argument);
}

TEST_CASE("an unknown workload lists the registered workloads") {
  check_error("[workload]\nkind = \"forwrd\"\n", "2:8", "unknown workload 'forwrd' (did you mean 'forward'?); valid: ");
}

TEST_CASE("an unknown steal mode lists one and half") {
  check_error(std::string(forward_head) + "[scheduler]\nsteal = \"all\"\n", "4:9", "unknown steal mode 'all'; valid: one, half");
}

TEST_CASE("zero workers is rejected at the value") {
  check_error(std::string(forward_head) + "[scheduler]\nworkers = 0\n", "4:11", "scheduler.workers must be at least 1, got 0");
}

TEST_CASE("a negative burst is rejected at the value") {
  check_error(std::string(forward_head) + "[scheduler]\nburst = -3\n", "4:9", "scheduler.burst must be at least 1, got -3");
}

TEST_CASE("zero thresholds are rejected") {
  check_error(std::string(forward_head) + "[scheduler]\ndonate_threshold = 0\n", "4:20",
              "scheduler.donate_threshold must be at least 1");
  check_error(std::string(forward_head) + "[scheduler]\noverload_after = 0\n", "4:18",
              "scheduler.overload_after must be at least 1");
}

TEST_CASE("a zero park time is rejected") {
  check_error(std::string(forward_head) + "[scheduler.idle]\nmin_park_us = 0\n", "4:15",
              "scheduler.idle.min_park_us must be at least 1, got 0");
}

TEST_CASE("a zero workload count is rejected by the parameter's minimum") {
  check_error(std::string(forward_head) + "actors = 0\n", "3:10", "workload.actors must be at least 1, got 0");
}

TEST_CASE("a workload real below its minimum is rejected") {
  check_error("[workload]\nkind = \"test-knobs\"\nratio = 0.1\n", "3:9", "workload.ratio must be at least 0.25, got 0.1");
}

TEST_CASE("a negative seed is rejected") {
  check_error("seed = -1\n[workload]\nkind = \"forward\"\n", "1:8", "seed must be at least 0, got -1");
}

TEST_CASE("a count beyond 32 bits is out of range") {
  check_error(std::string(forward_head) + "[scheduler]\nworkers = 5000000000\n", "4:11",
              "scheduler.workers = 5000000000 is out of range (at most 4294967295)");
}

TEST_CASE("a microsecond value that would overflow nanoseconds is out of range") {
  check_error(std::string(forward_head) + "[scheduler.idle]\nsleep_us = 9223372036854775807\n", "4:12",
              "scheduler.idle.sleep_us = 9223372036854775807 is out of range");
}

TEST_CASE("a configuration that validate() rejects points at the [scheduler] table") {
  check_error(std::string(forward_head) + "[scheduler]\nworkers = 2000\n", "3:1", "workers must be between 1 and 1024");
}

TEST_CASE("parks out of order point at the key and name it as the file does, in microseconds") {
  check_error(std::string(forward_head) + "[scheduler]\n[scheduler.idle]\nmin_park_us = 50\nmax_park_us = 10\n", "6:15",
              "scheduler.idle.max_park_us (10) must be at least min_park_us (50)");
  check_error(std::string(forward_head) + "[scheduler.idle]\nmin_park_us = 5000\n", "4:15",
              "scheduler.idle.max_park_us (1000) must be at least min_park_us (5000)");
}

TEST_CASE("a workload number above its maximum is rejected at its key") {
  check_error("[workload]\nkind = \"skewed\"\nhot_percent = 150\n", "3:15",
              "workload.hot_percent must be at most 100, got 150");
}

TEST_CASE("bad --param overrides name the override and carry no position") {
  scenario s = load_scenario_file(scenario_dir + "/forward.toml");
  auto override_error = [&](std::string_view a) {
    try {
      apply_param_override(s, a);
    } catch (const scenario_error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(override_error("hops") == "--param hops: expected KEY=VALUE, e.g. --param tokens=500");
  CHECK(override_error("hop=3") ==
        "--param hop=3: unknown parameter 'hop' for workload \"forward\"; valid: " + forward_params());
  CHECK(override_error("hops=many") == "--param hops=many: workload.hops: expected integer, got string");
  CHECK(override_error("hops=0") == "--param hops=0: workload.hops must be at least 1, got 0");
  CHECK(override_error("hops=1 x = 2") == "--param hops=1 x = 2: workload.hops: expected integer, got string");
}

TEST_SUITE_END();
