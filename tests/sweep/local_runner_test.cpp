// A sweep's simulated cells run on runners that reuse one engine per core count: every row is the one a fresh process makes, also after a cell that aborted.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "sim/run_sim.hpp"
#include "sweep/local_runner.hpp"
#include "sweep/sweep_spec.hpp"

TEST_SUITE_BEGIN("sim");

using namespace twinsched;

// Two core counts (two engines), three policies, and a long cell in every other place that
// hits the simulated time limit: its runner cannot go on, and the cells after it get a new one.
TEST_CASE("a sweep's rows equal fresh processes' simulations, cell by cell" * doctest::timeout(300)) {
  const sweep_spec spec = load_sweep_text(
      "[axes]\n"
      "cores = [1, 3]\n"
      "policy = [\"stealing\", \"sharing\", \"shared-queue\"]\n"
      "workload.hops = [100, 40000]\n"
      "seed = [1, 2]\n"
      "workload.tokens = 20\n"
      "[sim]\n"
      "time_limit = 0.002\n",
      "reuse.toml");
  const std::vector<sweep_cell> cells = expand(spec);
  REQUIRE(cells.size() == 24);
  std::vector<const sweep_cell*> todo;
  for (const auto& c : cells) todo.push_back(&c);
  std::map<std::size_t, sweep_row> rows;
  sweep_run_hooks hooks;
  hooks.on_row = [&](const sweep_row& r) { CHECK(rows.emplace(r.cell, r).second); };
  run_cells(todo, 2, hooks);
  REQUIRE(rows.size() == cells.size());

  std::map<std::string, int> verdicts;
  for (const auto& c : cells) {
    CAPTURE(c.key);
    const sweep_row fresh = make_row(c, simulate(c.s, c.o), 0);
    const sweep_row& got = rows.at(c.index);
    CHECK(got.error == fresh.error);
    CHECK(got.verdict == fresh.verdict);
    CHECK(got.event_hash == fresh.event_hash);
    CHECK(got.messages == fresh.messages);
    CHECK(got.makespan_s == fresh.makespan_s);
    CHECK(got.steals == fresh.steals);
    CHECK(got.parks == fresh.parks);
    ++verdicts[got.verdict];
  }
  CHECK(verdicts["OK"] > 0);
  CHECK(verdicts["FAIL"] > 0);  // the long cells aborted, in the middle of their group
  CHECK(verdicts["OK"] + verdicts["FAIL"] == int(cells.size()));
}
