// Message-exact replay: a full-level trace of a real run replays with every turn's recorded messages, on its recorded worker (adaptive's threads started and retired as recorded); a tampered one does not.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/replay_check.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {

/// A stock workload with its stock policy (scenarios/*.toml), small, on 2 workers.
scenario stock(const std::string& workload) {
  scenario s;
  s.name = "exact-" + workload;
  s.workload = workload;
  s.sched.workers = 2;
  s.sched.policy = "stealing";
  s.sched.idle.strategy = "backoff";
  if (workload == "forward")
    s.workload_params = {{"actors", std::int64_t(100)}, {"tokens", std::int64_t(20)}, {"hops", std::int64_t(200)}};
  if (workload == "pingpong") s.workload_params = {{"pairs", std::int64_t(4)}, {"bounces", std::int64_t(500)}};
  if (workload == "pi") s.workload_params = {{"jobs", std::int64_t(100)}, {"terms", std::int64_t(20000)}};
  if (workload == "skewed") s.workload_params = {{"messages", std::int64_t(4000)}, {"cost_ns", std::int64_t(500)}};
  if (workload == "fanout-idle") {
    s.workload_params = {{"actors", std::int64_t(2000)}, {"messages", std::int64_t(5000)}};
    s.sched.policy = "shared-queue";
    s.sched.idle.strategy = "park";
  }
  if (workload == "pool") {
    s.workload_params = {{"bursts", std::int64_t(4)}, {"burst_size", std::int64_t(200)}};
    s.sched.policy = "donation";
  }
  if (workload == "burst") {
    s.workload_params = {{"burst_msgs", std::int64_t(2000)}, {"idle_msgs", std::int64_t(500)}};
    s.sched.policy = "adaptive";
    s.sched.idle.strategy = "park";
    s.sched.min_workers = 2;
    s.sched.max_workers = 2;
  }
  s.trace = trace_level::full;
  return s;
}

// The process id keeps two runs of this file (two builds' suites at once) apart.
std::string temp_path(const std::string& name) {
  return "/tmp/twinsched-exact-test-" + std::to_string(::getpid()) + "-" + name + ".tst";
}

struct replayed {
  sim_result sim;
  traces::delivery_match deliveries;
};

replayed replay_real(const scenario& s, const std::string& real, const std::string& out) {
  sim_options o;
  o.cores = 2;
  o.replay_from = real;
  o.trace_path = out;
  replayed r{simulate(s, o), {}};
  traces::trace_reader a(real), b(out);
  r.deliveries = traces::compare_deliveries(a.footer(), b.footer());
  return r;
}

std::string notes(const replay_log& log) {
  std::string n;
  for (const auto& x : log.notes) n += x + "\n";
  return n;
}

std::string errors(const sim_result& r) {
  std::string n;
  for (const auto& x : r.run.errors) n += x + "\n";
  return n;
}

/// Events of kind `k` over every lane of the trace at `path` (its footer's counts).
std::uint64_t count_of(const std::string& path, event_kind k) {
  traces::trace_reader r(path);
  std::uint64_t n = 0;
  for (const auto& l : r.footer().lanes) n += l.by_kind[unsigned(k)];
  return n;
}

/// Stock burst as shipped (adaptive from `workers` threads up to 4), smaller: threads start
/// in the burst (all 64 actors queued on the first threads: they run overload_after
/// messages without going idle) and retire in the trickle after it (6 ms of one actor's
/// work, while the other threads idle for retire_after).
scenario scaling_burst(unsigned workers) {
  scenario s = stock("burst");
  s.workload_params = {{"burst_msgs", std::int64_t(2000)}, {"idle_msgs", std::int64_t(3000)}};
  s.sched.workers = workers;
  s.sched.min_workers = 1;
  s.sched.max_workers = 4;
  s.sched.overload_after = 100;
  s.sched.retire_after_ns = 200'000;
  return s;
}

/// The first worker lane of `path` with at least `n` message_begin events (a real run may
/// leave one worker nearly idle).
std::uint16_t busy_lane(const std::string& path, int n) {
  traces::trace_reader r(path);
  for (std::uint16_t lane : r.lanes()) {
    if (lane == outside_worker) continue;
    int k = 0;
    traces::lane_cursor c(r, lane);
    while (const trace_event* e = c.next()) k += e->kind == event_kind::message_begin;
    if (k >= n) return lane;
  }
  return outside_worker;
}

/// Rewrites trace `in` as `out` with `change` applied to every event of every lane.
template <class Change>
void rewrite(const std::string& in, const std::string& out, Change&& change) {
  traces::trace_reader r(in);
  traces::trace_writer w(out, r.header());
  for (std::uint16_t lane : r.lanes()) {
    std::vector<trace_event> events;
    traces::lane_cursor c(r, lane);
    while (const trace_event* e = c.next()) {
      trace_event x = *e;
      change(lane, x);
      events.push_back(x);
    }
    w.write_events(lane, events);
  }
  w.finish(r.footer());
}

}  // namespace

TEST_CASE("a full-level trace of a real run of every stock workload replays message-exact, every digest equal" *
          doctest::timeout(600)) {
  for (const std::string workload : {"forward", "pingpong", "pi", "skewed", "fanout-idle", "burst", "pool"}) {
    CAPTURE(workload);
    scenario s = stock(workload);
    const std::string real = temp_path("real-" + workload), out = temp_path("rep-" + workload);
    run_result r = run_on_threads(s, trace_request{real, trace_level::full});
    REQUIRE(r.ok());
    replayed rep = replay_real(s, real, out);
    CAPTURE(r.messages);
    CAPTURE(notes(rep.sim.replay));
    CAPTURE(rep.deliveries.first_difference);
    CAPTURE(errors(rep.sim));
    REQUIRE(rep.sim.ok());
    CHECK(rep.sim.replay.exact);
    CHECK(rep.sim.replay.recorded > 0);
    CHECK(rep.sim.replay.followed == rep.sim.replay.recorded);  // 100% of turns message-exact
    CHECK(rep.sim.replay.passed == 0);
    CHECK(rep.sim.replay.inexact == 0);
    CHECK(rep.sim.replay.skipped == 0);
    CHECK(rep.deliveries.equal);
    CHECK(rep.deliveries.actors > 0);
    CHECK(rep.sim.run.messages == r.messages);
    std::remove(real.c_str());
    std::remove(out.c_str());
  }
}

TEST_CASE("a full-level trace of a real run replays 100% message-exact under every policy family, adaptive's "
          "thread starts and retirements included" *
          doctest::timeout(120)) {
  // one stock workload per policy, on 2 workers; burst under adaptive grows to 4 threads and
  // shrinks again: the replay must start and retire them where the recording did, or the
  // turns of the threads it did not start would run elsewhere (adopted, not followed)
  const std::pair<const char*, const char*> cases[] = {
      {"burst", "adaptive"}, {"fanout-idle", "shared-queue"}, {"skewed", "distribution"},
      {"forward", "sharing"}, {"pingpong", "stealing"},      {"pool", "donation"}};
  for (const auto& [workload, policy] : cases) {
    CAPTURE(workload);
    CAPTURE(policy);
    scenario s = std::string(workload) == "burst" ? scaling_burst(2) : stock(workload);
    s.sched.policy = policy;
    const std::string real = temp_path(std::string("family-real-") + policy),
                      out = temp_path(std::string("family-rep-") + policy);
    REQUIRE(run_on_threads(s, trace_request{real, trace_level::full}).ok());
    // else the case would not test scaling; threads start in every run (the burst queues
    // work on them), but one starved on a loaded machine may not idle long enough to retire
    const bool scales = s.sched.policy == "adaptive";
    for (int again = 0; scales && again < 4 && count_of(real, event_kind::thread_retire) == 0; ++again)
      REQUIRE(run_on_threads(s, trace_request{real, trace_level::full}).ok());
    if (scales) {
      REQUIRE(count_of(real, event_kind::thread_start) > 0);
      REQUIRE(count_of(real, event_kind::thread_retire) > 0);
    }
    replayed rep = replay_real(s, real, out);
    CAPTURE(notes(rep.sim.replay));
    CAPTURE(rep.deliveries.first_difference);
    CAPTURE(errors(rep.sim));
    REQUIRE(rep.sim.ok());
    const replay_log& log = rep.sim.replay;
    CHECK(log.exact);
    CHECK(log.recorded > 0);
    CHECK(log.followed == log.recorded);  // 100%: each on its recorded worker with its recorded messages
    CHECK(log.adopted == 0);
    CHECK(log.passed == 0);  // no empty turn passed over instead of run
    CHECK(log.inexact == 0);
    CHECK(log.skipped == 0);
    CHECK(rep.deliveries.equal);
    // the recorded scaling decisions, made again: as many starts, retirements and migrations
    for (event_kind k : {event_kind::thread_start, event_kind::thread_retire, event_kind::migrate}) {
      CAPTURE(int(k));
      if (scales) CHECK(count_of(out, k) == count_of(real, k));
    }
    std::remove(real.c_str());
    std::remove(out.c_str());
  }
}

TEST_CASE("stock burst as shipped (adaptive from one thread to four): every recorded thread start and retirement is "
          "made again, each turn on its recorded worker" *
          doctest::timeout(120)) {
  scenario s = load_scenario_file(std::string(TWINSCHED_SOURCE_DIR) + "/scenarios/burst.toml");
  s.trace = trace_level::full;
  const std::string real = temp_path("scaled-real"), out = temp_path("scaled-rep");
  REQUIRE(run_on_threads(s, trace_request{real, trace_level::full}).ok());
  REQUIRE(count_of(real, event_kind::thread_start) > 0);
  replayed rep = replay_real(s, real, out);
  CAPTURE(notes(rep.sim.replay));
  CAPTURE(rep.deliveries.first_difference);
  REQUIRE(rep.sim.ok());
  CHECK(rep.sim.replay.followed == rep.sim.replay.recorded);
  CHECK(rep.sim.replay.adopted == 0);
  CHECK(rep.sim.replay.inexact == 0);
  CHECK(rep.sim.replay.skipped == 0);
  CHECK(rep.deliveries.equal);
  CHECK(count_of(out, event_kind::thread_start) == count_of(real, event_kind::thread_start));
  CHECK(count_of(out, event_kind::thread_retire) == count_of(real, event_kind::thread_retire));
  std::remove(real.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a tampered trace whose turn names a message it never got is reported as not followed" *
          doctest::timeout(300)) {
  scenario s = stock("forward");
  const std::string real = temp_path("tamper-real"), bad = temp_path("tamper-bad"), out = temp_path("tamper-rep");
  REQUIRE(run_on_threads(s, trace_request{real, trace_level::full}).ok());
  // swap the id of one consumed message (a busy worker's 10th message_begin) for one never sent
  const std::uint16_t busy = busy_lane(real, 10);
  REQUIRE(busy != outside_worker);
  int seen = 0;
  rewrite(real, bad, [&](std::uint16_t lane, trace_event& e) {
    if (lane == busy && e.kind == event_kind::message_begin && ++seen == 10) e.message += 1'000'000;
  });
  REQUIRE(seen >= 10);
  replayed rep = replay_real(s, bad, out);
  CAPTURE(notes(rep.sim.replay));
  REQUIRE(rep.sim.ok());  // the run still finishes: every message is processed once
  CHECK(rep.sim.replay.exact);
  CHECK(rep.sim.replay.followed < rep.sim.replay.recorded);
  CHECK(rep.sim.replay.inexact >= 1);
  CHECK_FALSE(rep.sim.replay.notes.empty());
  CHECK(rep.sim.run.messages == rep.sim.run.expected_messages);
  std::remove(real.c_str());
  std::remove(bad.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a tampered trace that swaps two actors' recorded messages is not message-exact" * doctest::timeout(300)) {
  scenario s = stock("pingpong");
  const std::string real = temp_path("swap-real"), bad = temp_path("swap-bad"), out = temp_path("swap-rep");
  REQUIRE(run_on_threads(s, trace_request{real, trace_level::full}).ok());
  // a busy worker's first message_begin gets the id of a message another actor consumed
  const std::uint16_t busy = busy_lane(real, 10);
  REQUIRE(busy != outside_worker);
  std::uint64_t other_id = 0;
  std::uint32_t first_actor = 0;
  {
    traces::trace_reader r(real);
    traces::lane_cursor c(r, busy);
    while (const trace_event* e = c.next()) {
      if (e->kind != event_kind::message_begin) continue;
      if (!first_actor) first_actor = e->actor;
      else if (e->actor != first_actor) {
        other_id = e->message;
        break;
      }
    }
  }
  REQUIRE(other_id != 0);
  bool done = false;
  rewrite(real, bad, [&](std::uint16_t lane, trace_event& e) {
    if (lane == busy && e.kind == event_kind::message_begin && !done) {
      e.message = other_id;
      done = true;
    }
  });
  replayed rep = replay_real(s, bad, out);
  CAPTURE(notes(rep.sim.replay));
  REQUIRE(rep.sim.ok());
  CHECK(rep.sim.replay.followed < rep.sim.replay.recorded);
  CHECK(rep.sim.replay.inexact >= 1);
  std::remove(real.c_str());
  std::remove(bad.c_str());
  std::remove(out.c_str());
}

TEST_CASE("a real trace records its host's core count in the header, for replay") {
  scenario s = stock("skewed");
  const std::string real = temp_path("cores");
  REQUIRE(run_on_threads(s, trace_request{real, trace_level::decisions}).ok());
  traces::trace_reader r(real);
  CHECK(r.header().host_cores == std::max(1u, std::thread::hardware_concurrency()));
  CHECK(r.header().backend == "threads");
  std::remove(real.c_str());
}

TEST_SUITE_END();
