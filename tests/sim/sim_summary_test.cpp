// A simulation's summary (JSON and text), the scaling table, the determinism verdicts, the
// runs over several core counts, and a replay's options and outcome: no simulation runs here.
#include <doctest/doctest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "sim/replay_outcome.hpp"
#include "sim/scaling_run.hpp"
#include "sim/sim_summary.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

sim_result ok_result(std::uint32_t cores, double sim_s) {
  sim_result r;
  r.run.backend = "sim";
  r.run.checksum = r.run.reference = 42;
  r.run.messages = r.run.expected_messages = 1000;
  r.run.wall_s = r.sim_s = sim_s;
  r.cores = cores;
  r.machine = "default";
  return r;
}

}  // namespace

TEST_CASE("sim --json: the event hash is a hex string too, beside the run's checksum") {
  scenario s;
  sim_result r;
  r.run.backend = "sim";
  r.run.checksum = r.run.reference = 42;
  r.event_hash = 0x8000000000000001ull;
  const nlohmann::json j = nlohmann::json::parse(sim_json(s, r).dump());
  CHECK(j.at("checksum") == "000000000000002a");
  CHECK(j.at("sim").at("event_hash") == "8000000000000001");
}

TEST_CASE("first_difference names the first differing field and how many more there are") {
  sim_result a = ok_result(2, 0.5), b = a;
  CHECK(first_difference(a, b).empty());
  b.event_hash = 1;
  const std::string one = first_difference(a, b);
  CHECK(!one.empty());
  CHECK(!has(one, "more fields"));
  b.run.messages = 7;
  b.sim_s = 0.25;
  CHECK(has(first_difference(a, b), "more fields)"));
}

TEST_CASE("the scaling table: header, aligned rows with speed-up against the first, a failed row's errors") {
  scenario s;
  s.name = "fw";
  s.workload = "forward";
  s.sched.policy = "stealing";
  s.sched.workers = 1;
  sim_run one{s, ok_result(1, 0.002), false, {}};
  const std::string head = scaling_header(one, "coarse");
  CHECK(has(head, "scenario fw, forward, policy stealing, idle "));
  CHECK(has(head, ", machine default, interleave coarse\n"));
  CHECK(has(head, " cores  workers   simulated s     sim msgs/s  speedup"));
  const double base = one.r.run.msgs_per_s();
  CHECK(base == doctest::Approx(500000));
  sim_run two{s, ok_result(2, 0.001), false, {}};
  two.s.sched.workers = 2;
  two.r.event_hash = 0xabc;
  const std::string row = scaling_row(two, base);
  CHECK(row.rfind("     2        2      0.001000        1000000     2.00", 0) == 0);
  CHECK(has(row, "  OK       0000000000000abc"));
  two.r.aborted = true;
  two.r.run.errors = {"simulation: hung"};
  CHECK(has(scaling_row(two, base), "FAIL   "));
  CHECK(has(scaling_row(two, base), "\n        simulation: hung"));
}

TEST_CASE("print_sim_runs: one run's summary and determinism verdict, a table's determinism line, JSON") {
  scenario s;
  s.name = "fw";
  std::vector<sim_run> runs{{s, ok_result(2, 0.001), true, {}}};
  std::ostringstream one;
  print_sim_runs(one, runs, false, schedule_spec{});
  CHECK(has(one.str(), "scenario      fw"));
  CHECK(has(one.str(), "simulated     machine default, 2 cores"));
  CHECK(has(one.str(), "determinism   OK: ran twice, same result and event hash\n"));
  CHECK(runs_ok(runs));

  schedule_spec list;
  list.strategy = "list";
  list.list = {{1, 5213, 12300, ""}};
  runs[0].r.preemptions = list.list;
  std::ostringstream perturbed;
  print_sim_runs(perturbed, runs, false, list);
  CHECK(has(perturbed.str(), "schedule      list 1:5213:12300: 1 preemptions applied\n                worker 1 before"));

  runs.push_back({s, ok_result(4, 0.001), true, "event_hash"});
  std::ostringstream table;
  print_sim_runs(table, runs, false, schedule_spec{});
  CHECK(table.str() == "determinism   FAIL: the two runs differ on 4 cores (stderr says where)\n");
  CHECK(!runs_ok(runs));

  std::ostringstream json;
  print_sim_runs(json, runs, true, schedule_spec{});
  const nlohmann::json j = nlohmann::json::parse(json.str());
  REQUIRE(j.is_array());
  CHECK(j[1].at("determinism").at("first_difference") == "event_hash");
  CHECK(j[0].at("determinism").at("identical") == true);
}

TEST_CASE("simulate_on_cores: one worker per core unless kept, each run twice when checked, done after each") {
  scenario s;
  s.name = "fw";
  s.sched.workers = 3;
  std::vector<std::string> whats;
  int calls = 0;
  const simulate_fn fake = [&](const scenario& si, const sim_options& o, const std::string& what) {
    whats.push_back(what);
    sim_result r = ok_result(o.cores, 0.001);
    r.event_hash = si.sched.workers + (calls++ == 3 ? 100 : 0);  // the second core count's second run differs
    return r;
  };
  std::size_t done = 0;
  const auto runs = simulate_on_cores(s, sim_options{}, {1, 2}, false, true, fake,
                                      [&](const std::vector<sim_run>& so_far) { done = so_far.size(); });
  REQUIRE(runs.size() == 2);
  CHECK(done == 2);
  CHECK(runs[0].s.sched.workers == 1);
  CHECK(runs[1].s.sched.workers == 2);
  CHECK(runs[0].difference.empty());
  CHECK(!runs[1].difference.empty());
  CHECK(whats == std::vector<std::string>{"fw on 1 core", "fw on 1 core (again)", "fw on 2 cores", "fw on 2 cores (again)"});

  const auto kept = simulate_on_cores(s, sim_options{}, {0}, true, false, fake, [](const std::vector<sim_run>&) {});
  CHECK(kept[0].s.sched.workers == 3);
  CHECK(!kept[0].checked);
  CHECK(whats.back() == "fw on the machine's cores");
}

TEST_CASE("a replay's options: as recorded for a simulated trace, the host's cores for a real one, flags override") {
  CHECK(replay_trace_path("a/run.tst") == "a/run.replay.tst");
  CHECK(replay_trace_path("run.trace") == "run.trace.replay.tst");
  CHECK(replay_trace_path(".tst") == ".tst.replay.tst");

  traces::trace_header sim;
  sim.backend = "sim";
  sim.sim_cores = 6;
  sim.sim_interleave = "fine";
  sim.sim_machine_spec = "xeon.toml";
  scenario s;
  s.machine = "default";
  s.sched.workers = 8;
  sim_options o = replay_options(sim, s, "", 0);
  CHECK(o.cores == 6);
  CHECK(o.interleave == "fine");
  CHECK(o.machine == "xeon.toml");

  traces::trace_header real;
  real.backend = "threads";
  real.host_cores = 4;
  o = replay_options(real, s, "", 0);
  CHECK(o.cores == 8);  // never fewer cores than workers
  CHECK(o.machine == "default");
  o = replay_options(real, s, "big", 16);
  CHECK(o.cores == 16);
  CHECK(o.machine == "big");
}

TEST_CASE("a replay's verdict: identical when compared, every turn followed and digests equal when message-exact") {
  replay_outcome o;
  o.recorded = "in.tst";
  o.replayed = "in.replay.tst";
  o.backend = "sim";
  o.r = ok_result(2, 0.001);
  o.deliveries.equal = true;
  CHECK(o.ok());
  o.as_recorded = true;
  CHECK(!o.ok());  // compared, not identical
  o.match.identical = true;
  CHECK(o.ok());
  o.r.replay.exact = true;
  o.r.replay.recorded = 10;
  o.r.replay.followed = 9;
  CHECK(!o.ok());
  o.r.replay.followed = 10;
  CHECK(o.ok());
  o.deliveries.equal = false;
  CHECK(!o.ok());

  scenario s;
  std::ostringstream text;
  print_replay(text, s, o);
  CHECK(has(text.str(), "replay        10 of 10 recorded turns followed (100.0%, message-exact"));
  CHECK(has(text.str(), "identical     yes: "));
  CHECK(has(text.str(), "trace         in.replay.tst\n"));
  const nlohmann::json j = replay_json(s, o);
  CHECK(j.at("replay").at("replayed") == "in.replay.tst");
  CHECK(j.at("replay").at("identical").at("identical") == true);
}
