// Explore's search loop: a planted failing seed is found first in seed order whatever the parallelism, a crashed run is a failure, a clean search runs every seed, and shrinking goes through the same trials.
#include <doctest/doctest.h>

#include <algorithm>
#include <csignal>
#include <memory>
#include <string>
#include <vector>

#include "child_job.hpp"
#include "explore/search.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
using namespace twinsched::explore;

namespace {

/// A synthetic trial: the child "runs" the schedule by deciding from its seed alone whether
/// it breaks an invariant (seeds in `bad`), or crashes (seeds in `crash`).
trial seeds_trial(std::vector<std::uint64_t> bad, std::vector<std::uint64_t> crash = {}) {
  return [bad, crash](const sim_options& o, outcome& out) {
    const std::uint64_t seed = o.schedule.seed;
    auto text = std::make_shared<std::string>();
    jobs::started_job j = testing::child_job(
        [&] {
          if (std::find(crash.begin(), crash.end(), seed) != crash.end()) ::raise(SIGKILL);
          return std::find(bad.begin(), bad.end(), seed) != bad.end() ? std::string("lost-wakeup") : std::string("ok");
        },
        *text, [](const std::string& t) { return t != "ok"; });
    auto finish = j.finish;
    j.finish = [finish, text, &out] {
      const bool failed = finish();
      out.failed = failed;
      out.kind = failed ? *text : "";
      return failed;
    };
    return j;
  };
}

std::vector<sim_options> seeds(std::uint64_t first, std::uint64_t runs) {
  schedule_spec spec;
  spec.strategy = "random";
  spec.seed = first;
  return draw_schedules(sim_options{}, spec, runs);
}

}  // namespace

TEST_CASE("draws one schedule per seed, from the first seed up") {
  const auto v = seeds(100, 5);
  REQUIRE(v.size() == 5);
  for (std::size_t i = 0; i < v.size(); ++i) {
    CHECK(v[i].schedule.seed == 100 + i);
    CHECK(v[i].schedule.strategy == "random");
  }
}

TEST_CASE("finds the planted failing seed, the first in seed order whatever the jobs" * doctest::timeout(120)) {
  for (unsigned jobs : {1u, 3u}) {
    CAPTURE(jobs);
    const search_result r = search(seeds(0, 40), seeds_trial({23, 31}), {jobs, 0, {}});
    REQUIRE(r.failed);
    CHECK(*r.failed == 23);
    CHECK(r.outcomes[23]->kind == "lost-wakeup");
    for (std::size_t i = 0; i < 23; ++i) {
      REQUIRE(r.outcomes[i]);
      CHECK_FALSE(r.outcomes[i]->failed);
    }
    CHECK(r.ran >= 24);
    if (jobs == 1) CHECK(r.ran == 24);  // nothing after the failure started
  }
}

TEST_CASE("a clean search runs every seed and finds nothing" * doctest::timeout(120)) {
  const search_result r = search(seeds(7, 12), seeds_trial({3}), {2, 0, {}});  // seed 3 is not among 7..18
  CHECK_FALSE(r.failed);
  CHECK(r.ran == 12);
}

TEST_CASE("a run whose process dies is a failure of kind crash" * doctest::timeout(120)) {
  const search_result r = search(seeds(0, 10), seeds_trial({}, {4}), {2, 0, {}});
  REQUIRE(r.failed);
  CHECK(*r.failed == 4);
  CHECK(r.outcomes[4]->kind == "crash");
  CHECK(r.outcomes[4]->error == "child died of signal 9");
}

TEST_CASE("shrinking runs each candidate list as a trial and keeps the preemptions the failure needs" *
          doctest::timeout(120)) {
  // the synthetic trial fails when the list holds preemptions at operations 40 and 70: it
  // reads the list in the child, so every candidate really goes through the pool
  trial needs_two = [](const sim_options& o, outcome& out) {
    auto text = std::make_shared<std::string>();
    const std::vector<preemption> list = o.schedule.list;
    jobs::started_job j = testing::child_job(
        [list] {
          auto has = [&](std::uint64_t op) {
            return std::any_of(list.begin(), list.end(), [&](const preemption& p) { return p.op == op; });
          };
          return has(40) && has(70) ? std::string("two-workers") : std::string("ok");
        },
        *text, [](const std::string& t) { return t != "ok"; });
    auto finish = j.finish;
    j.finish = [finish, text, &out] {
      out.failed = finish();
      out.kind = out.failed ? *text : "";
      return out.failed;
    };
    return j;
  };
  std::vector<preemption> list;
  for (std::uint64_t op = 0; op < 100; op += 10) list.push_back({int(op % 3), op, 1000.0 + double(op), ""});
  std::size_t tries = 0;
  const auto small = shrink_schedule(sim_options{}, list, "two-workers", needs_two, 2, tries);
  REQUIRE(small.size() == 2);
  CHECK(small[0].op == 40);
  CHECK(small[1].op == 70);
  CHECK(tries > 0);
  std::size_t again = 0;  // another invariant: nothing shrinks
  CHECK(shrink_schedule(sim_options{}, list, "lost-wakeup", needs_two, 2, again).size() == list.size());
}
