// Running the accuracy matrix, played with stand-in runs and probes: the order of the runs, the median run,
// the re-runs for runs the host spoiled, failed runs, the simulation's cores.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "twin/accuracy_run.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::twin;

namespace {

accuracy_case named(const std::string& name) {
  accuracy_case c;
  c.s.name = name;
  c.s.sched.policy = "stealing";
  c.s.sched.workers = 1;
  return c;
}

/// A matrix played without running anything: real run k of a case takes the next of its
/// `times` (ms), the simulation 50 ms, each probe returns the next of `probes` (the last repeats).
struct played {
  std::vector<std::string> steps;  ///< "case: phase" in the order the steps started
  std::vector<std::size_t> numbers;  ///< their step numbers (a failed case's skipped steps keep theirs)
  std::size_t planned = 0;
  std::vector<sim_options> sims;
  std::vector<std::string> warnings;

  matrix_steps hooks(std::vector<double> times, std::vector<double> probes) {
    matrix_steps s;
    s.planned = [this](std::size_t more) { planned += more; };
    s.started = [this](std::size_t step, const std::string& name, const std::string& phase) {
      numbers.push_back(step);
      steps.push_back(name + ": " + phase);
    };
    s.real_run = [times, i = std::size_t(0)](const scenario&) mutable {
      run_result r;
      r.wall_s = times[std::min(i++, times.size() - 1)] / 1e3;
      return r;
    };
    s.simulate = [this](const scenario&, const sim_options& o) {
      sims.push_back(o);
      sim_result r;
      r.run.wall_s = 0.05;
      return r;
    };
    s.probe = [probes, i = std::size_t(0)]() mutable { return probes[std::min(i++, probes.size() - 1)]; };
    s.warn = [this](const std::string& w) { warnings.push_back(w); };
    return s;
  }
};

accuracy_setup setup_of(unsigned runs, unsigned warmup, const std::string& order) {
  accuracy_setup s;
  s.machine = "m";
  s.host_cores = 4;
  s.runs = runs;
  s.warmup = warmup;
  s.order = order;
  s.model_line_ns = 10;
  return s;
}

}  // namespace

TEST_CASE("run_matrix: in rounds, every case's warm-up, then every case's runs, then the simulations") {
  std::vector<accuracy_case> cases{named("a"), named("b")};
  accuracy_setup setup = setup_of(2, 1, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({1, 1, 30, 20, 10, 40}, {10}));
  CHECK(p.steps == std::vector<std::string>{"a stealing 1w: real warm-up", "b stealing 1w: real warm-up",
                                            "a stealing 1w: real run 1/2", "b stealing 1w: real run 1/2",
                                            "a stealing 1w: real run 2/2", "b stealing 1w: real run 2/2",
                                            "a stealing 1w: simulating on m", "b stealing 1w: simulating on m"});
  CHECK(p.planned == 8);
  CHECK(p.numbers == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(cases[0].real_runs_s == std::vector<double>{0.03, 0.01});  // warm-ups left out
  CHECK(cases[0].real.wall_s == 0.01);  // an even count: the faster middle run
  CHECK(cases[1].real_runs_s == std::vector<double>{0.02, 0.04});
  CHECK(cases[1].sim.run.wall_s == 0.05);
  CHECK(setup.host_line_ns.size() == 7);  // one before the first run, one after each
  CHECK(setup.runs_in_state == 4);
  CHECK(setup.reran == 0);
  CHECK(p.warnings.empty());
}

TEST_CASE("run_matrix: --order cases runs one case's warm-up and runs in a row") {
  std::vector<accuracy_case> cases{named("a"), named("b")};
  accuracy_setup setup = setup_of(1, 1, "cases");
  played p;
  run_matrix(cases, setup, p.hooks({5}, {10}));
  CHECK(p.steps == std::vector<std::string>{"a stealing 1w: real warm-up", "a stealing 1w: real run 1/1",
                                            "b stealing 1w: real warm-up", "b stealing 1w: real run 1/1",
                                            "a stealing 1w: simulating on m", "b stealing 1w: simulating on m"});
}

TEST_CASE("run_matrix: a run between probes off the model is re-run and kept apart, a case with none in state is host_moved") {
  // No warm-up, one run each: a lies between probes 0-1 (10, 10), b between 1-2 (10, 100).
  std::vector<accuracy_case> cases{named("a"), named("b")};
  accuracy_setup setup = setup_of(1, 0, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({10, 20, 30}, {10, 10, 100, 10, 10}));
  CHECK(p.steps[2] == "b stealing 1w: real re-run 1 (the host was elsewhere)");  // 100 -> 10: spoiled too
  CHECK(setup.reran == 1);
  CHECK(setup.runs_in_state == 1);
  CHECK(setup.runs_off_state == 2);
  CHECK(p.planned == 5);
  // b's re-run lies between 100 and 10: spoiled as well; a second round would gain nothing, so none runs.
  CHECK_FALSE(cases[0].host_moved);
  CHECK(cases[1].host_moved);
  CHECK(cases[1].real_runs_s == std::vector<double>{0.02, 0.03});  // none in state: every run counts
  CHECK(cases[1].off_state_runs_s.empty());
}

TEST_CASE("run_matrix: a re-run in the model's state replaces the spoiled run") {
  // a between probes 0-1 (10, 10), b between 1-2 (10, 100), c between 2-3 (100, 10): b and c
  // are re-run, between 3-4 and 4-5 (all 10).
  std::vector<accuracy_case> cases{named("a"), named("b"), named("c")};
  accuracy_setup setup = setup_of(1, 0, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({10, 20, 30, 40, 50}, {10, 10, 100, 10}));
  CHECK(setup.reran == 2);
  CHECK(setup.runs_in_state == 3);
  CHECK(setup.runs_off_state == 2);
  CHECK_FALSE(cases[1].host_moved);
  CHECK(cases[1].real_runs_s == std::vector<double>{0.04});
  CHECK(cases[1].off_state_runs_s == std::vector<double>{0.02});
  CHECK(cases[1].real.wall_s == 0.04);
  CHECK(cases[2].real_runs_s == std::vector<double>{0.05});
}

TEST_CASE("run_matrix: when no run finds the model's state, every run counts, nothing is re-run, the first probe warns") {
  std::vector<accuracy_case> cases{named("a")};
  accuracy_setup setup = setup_of(2, 0, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({10, 20}, {1000}));
  REQUIRE(p.warnings.size() == 1);
  CHECK(p.warnings[0].starts_with("accuracy: warning: line transfer here 1000.0 ns, the model's 10.0: over 2x apart"));
  CHECK(setup.reran == 0);
  CHECK(setup.runs_off_state == 2);
  CHECK_FALSE(cases[0].host_moved);
  CHECK(cases[0].real_runs_s.size() == 2);
}

TEST_CASE("run_matrix: no probe figure (one CPU) records nothing and judges every run in state") {
  std::vector<accuracy_case> cases{named("a")};
  accuracy_setup setup = setup_of(1, 0, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({10}, {0}));
  CHECK(setup.host_line_ns.empty());
  CHECK(setup.runs_in_state == 1);
}

TEST_CASE("run_matrix: a failed run ends its case, a failed simulation fails it, verdict_failure says why") {
  std::vector<accuracy_case> cases{named("a"), named("b")};
  accuracy_setup setup = setup_of(2, 0, "rounds");
  played p;
  matrix_steps s = p.hooks({10}, {10});
  s.real_run = [](const scenario& sc) {
    run_result r;
    r.wall_s = 0.01;
    if (sc.name == "a") r.expected_messages = 5;  // none processed
    return r;
  };
  s.simulate = [](const scenario&, const sim_options&) -> sim_result { throw std::runtime_error("the child died"); };
  run_matrix(cases, setup, s);
  CHECK(cases[0].failure == "real run: 0 messages processed, 5 expected");
  CHECK(cases[1].failure == "simulation: the child died");
  CHECK(p.steps == std::vector<std::string>{"a stealing 1w: real run 1/2", "b stealing 1w: real run 1/2",
                                            "b stealing 1w: real run 2/2", "b stealing 1w: simulating on m"});
  CHECK(p.numbers == std::vector<std::size_t>{0, 1, 3, 5});  // a's second run and simulation are not run
  run_result r;
  r.errors = {"actor 3 threw"};
  r.leftover = 2;
  CHECK(verdict_failure(r) == "actor 3 threw");
  r.errors.clear();
  CHECK(verdict_failure(r) == "2 mailboxes or queued actors left over");
  r.leftover = 0;
  r.checksum = 1;
  CHECK(verdict_failure(r) == "checksum differs from the sequential reference");
}

TEST_CASE("run_matrix: the simulation gets a core per worker, and adaptive as many as it may grow to on this machine") {
  std::vector<accuracy_case> cases{named("a"), named("b"), named("c")};
  cases[1].s.sched.policy = "adaptive";
  cases[1].s.sched.max_workers = 8;
  cases[2].s.sched.workers = 2;
  cases[2].s.sched.max_workers = 3;
  accuracy_setup setup = setup_of(1, 0, "rounds");
  played p;
  run_matrix(cases, setup, p.hooks({10}, {10}));
  REQUIRE(p.sims.size() == 3);
  CHECK(p.sims[0].cores == 1);
  CHECK(p.sims[1].cores == 4);  // up to the host's 4 cores
  CHECK(p.sims[2].cores == 3);
  CHECK(p.sims[0].machine == "m");
}
