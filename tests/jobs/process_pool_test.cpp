// The process pool: every job runs once, at most K at a time, results land in job order, a crashed or silent child is reported, a failure stops later jobs.
#include <doctest/doctest.h>

#include <csignal>
#include <string>
#include <vector>

#include "child_job.hpp"
#include "jobs/process_pool.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

namespace {

/// N jobs whose child i writes i*i (or does what `special` says for some i), run through the pool.
struct pool_run {
  std::size_t n;
  std::vector<std::string> text;
  std::vector<int> starts;  // how often each job was started
  std::vector<std::string> errors;
  std::size_t in_flight = 0, most_in_flight = 0;

  explicit pool_run(std::size_t count) : n(count), text(count), starts(count), errors(count) {}

  jobs::pool_summary run(jobs::pool_options o, std::function<std::string(std::size_t)> child = {}) {
    if (!child) child = [](std::size_t i) { return std::to_string(i * i); };
    o.poll_wait = std::chrono::milliseconds(20);
    return jobs::run_pool(
        n, o,
        [&](std::size_t i) {
          ++starts[i];
          ++in_flight;
          most_in_flight = std::max(most_in_flight, in_flight);
          jobs::started_job j = testing::child_job([&child, i] { return child(i); }, text[i],
                                                   [](const std::string& t) { return t == "fail"; });
          auto finish = j.finish;
          j.finish = [this, finish] {
            --in_flight;
            return finish();
          };
          return j;
        },
        [&](std::size_t i, const std::string& what) { errors[i] = what; });
  }
};

}  // namespace

TEST_CASE("23 jobs over 4 children each run once, no more than 4 at a time, results in job order" *
          doctest::timeout(60)) {
  pool_run p(23);
  jobs::pool_options o;
  o.jobs = 4;
  const jobs::pool_summary s = p.run(o);
  CHECK(s.started == 23);
  CHECK(s.done == 23);
  CHECK(s.failed == 0);
  CHECK(p.most_in_flight <= 4);
  CHECK(p.most_in_flight >= 1);
  for (std::size_t i = 0; i < 23; ++i) {
    CHECK(p.starts[i] == 1);
    CHECK(p.text[i] == std::to_string(i * i));
    CHECK(p.errors[i].empty());
  }
}

TEST_CASE("a child that dies of a signal or exits without a result is reported as that job's failure" *
          doctest::timeout(60)) {
  pool_run p(8);
  jobs::pool_options o;
  o.jobs = 3;
  const jobs::pool_summary s = p.run(o, [](std::size_t i) -> std::string {
    if (i == 2) ::raise(SIGKILL);
    if (i == 5) ::_exit(3);
    return std::to_string(i);
  });
  CHECK(s.done == 8);
  CHECK(s.failed == 2);
  CHECK(p.errors[2] == "child died of signal 9");
  CHECK(p.errors[5] == "child exited with code 3 and no result");
  for (std::size_t i : {0, 1, 3, 4, 6, 7}) {
    CHECK(p.errors[i].empty());
    CHECK(p.text[i] == std::to_string(i));
  }
}

TEST_CASE("with stop_after_failure, every job before the first failure runs and, one at a time, none after it" *
          doctest::timeout(60)) {
  for (unsigned width : {1u, 4u}) {
    CAPTURE(width);
    pool_run p(20);
    jobs::pool_options o;
    o.jobs = width;
    o.stop_after_failure = true;
    const jobs::pool_summary s = p.run(o, [](std::size_t i) { return i == 6 || i == 9 ? std::string("fail") : std::to_string(i); });
    for (std::size_t i = 0; i < 6; ++i) CHECK(p.text[i] == std::to_string(i));
    CHECK(p.text[6] == "fail");
    CHECK(s.failed >= 1);
    if (width == 1) {  // one at a time, the failure is known before anything after it starts
      CHECK(s.started == 7);
      for (std::size_t i = 7; i < 20; ++i) CHECK(p.starts[i] == 0);
    }
    for (std::size_t i = 0; i < 20; ++i) CHECK(p.starts[i] <= 1);
  }
}

TEST_CASE("a job that cannot start is reported and the others still run" * doctest::timeout(60)) {
  std::vector<std::string> text(5), errors(5);
  jobs::pool_options o;
  o.jobs = 2;
  o.poll_wait = std::chrono::milliseconds(20);
  const jobs::pool_summary s = jobs::run_pool(
      5, o,
      [&](std::size_t i) {
        if (i == 1) throw std::runtime_error("no fork today");
        return testing::child_job([i] { return std::to_string(i); }, text[i], [](const std::string&) { return false; });
      },
      [&](std::size_t i, const std::string& what) { errors[i] = what; });
  CHECK(s.started == 5);
  CHECK(s.done == 5);
  CHECK(s.failed == 1);
  CHECK(errors[1] == "no fork today");
  for (std::size_t i : {0, 2, 3, 4}) CHECK(text[i] == std::to_string(i));
}

TEST_CASE("past the wall-clock limit no job starts" * doctest::timeout(60)) {
  pool_run p(10);
  jobs::pool_options o;
  o.jobs = 2;
  o.wall_limit_s = 1e-9;  // over before a first fork can have returned
  const jobs::pool_summary s = p.run(o);
  CHECK(s.started <= 1);
  CHECK(s.done == s.started);
}
