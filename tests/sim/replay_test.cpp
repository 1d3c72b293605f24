// Replay: a simulated trace replays event for event; a trace whose decisions differ from the policy's is followed.
#include <doctest/doctest.h>

#include <cstdio>
#include <unistd.h>
#include <string>
#include <utility>
#include <vector>

#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/replay_check.hpp"
#include "traces/trace_reader.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace {

scenario small(const std::string& workload, const std::string& policy, const std::string& idle = "backoff") {
  scenario s;
  s.name = "replay-" + workload + "-" + policy;
  s.workload = workload;
  if (workload == "forward")
    s.workload_params = {{"actors", std::int64_t(100)}, {"tokens", std::int64_t(20)}, {"hops", std::int64_t(200)}};
  if (workload == "pool") s.workload_params = {{"bursts", std::int64_t(4)}, {"burst_size", std::int64_t(200)}};
  if (workload == "pingpong") s.workload_params = {{"pairs", std::int64_t(4)}, {"bounces", std::int64_t(500)}};
  if (workload == "skewed") s.workload_params = {{"messages", std::int64_t(4000)}, {"cost_ns", std::int64_t(500)}};
  if (workload == "burst") s.workload_params = {{"burst_msgs", std::int64_t(2000)}, {"idle_msgs", std::int64_t(500)}};
  s.sched.policy = policy;
  s.sched.idle.strategy = idle;
  s.sched.workers = 2;
  if (policy == "adaptive") {
    s.sched.workers = 1;
    s.sched.min_workers = 1;
    s.sched.max_workers = 3;
  }
  s.sched.checks = true;
  s.trace = trace_level::full;
  return s;
}

// The process id keeps two runs of this file (two builds' suites at once) apart.
std::string temp_path(const std::string& name) {
  return "/tmp/twinsched-replay-test-" + std::to_string(::getpid()) + "-" + name + ".tst";
}

/// The actor ids of lane w's run_begin events, in order.
std::vector<std::uint32_t> turns(const traces::trace_reader& r, std::uint16_t w) {
  std::vector<std::uint32_t> v;
  traces::lane_cursor c(r, w);
  while (const trace_event* e = c.next())
    if (e->kind == event_kind::run_begin) v.push_back(e->actor);
  return v;
}

/// The replay compares identical to its recording, every recorded event compared.
void expect_identical(const traces::trace_reader& recorded, const traces::trace_reader& replayed) {
  traces::replay_match m = traces::compare_replay(recorded, replayed);
  CAPTURE(m.first_difference);
  CHECK(m.identical);
  CHECK(m.events == recorded.events());
}

}  // namespace

TEST_CASE("replaying a simulated trace reproduces it event for event, under every policy" * doctest::timeout(600)) {
  struct one {
    std::string workload, policy;
  };
  for (const one& c : std::vector<one>{{"forward", "stealing"},
                                       {"forward", "shared-queue"},
                                       {"skewed", "distribution"},
                                       {"skewed", "sharing"},
                                       {"pool", "donation"},
                                       {"burst", "adaptive"}}) {
    CAPTURE(c.policy);
    scenario s = small(c.workload, c.policy);
    sim_options o;
    o.cores = 2;
    o.trace_path = temp_path("rec-" + c.policy);
    sim_result rec = simulate(s, o);
    REQUIRE(rec.ok());

    sim_options ro = o;
    ro.replay_from = o.trace_path;
    ro.trace_path = temp_path("rep-" + c.policy);
    sim_result rep = simulate(s, ro);
    REQUIRE(rep.ok());
    CHECK(rep.event_hash == rec.event_hash);  // the simulator's own hash of every scheduling point
    CHECK(rep.sim_s == rec.sim_s);
    CHECK_FALSE(rep.replay.diverged);
    CHECK(rep.replay.recorded > 0);
    CHECK(rep.replay.followed == rep.replay.recorded);

    traces::trace_reader a(o.trace_path), b(ro.trace_path);
    expect_identical(a, b);
    std::remove(o.trace_path.c_str());
    std::remove(ro.trace_path.c_str());
  }
}

TEST_CASE("a decisions-level simulated trace, replayed at full level, compares identical to its recording" *
          doctest::timeout(300)) {
  // the replay records at full (replay's default); a decisions recording names no messages
  // in run_begin, schedule and donate (models/worker.hpp): compare_replay compares at its level
  for (const auto& [workload, policy] : std::vector<std::pair<std::string, std::string>>{{"forward", "stealing"},
                                                                                          {"pool", "donation"}}) {
    CAPTURE(policy);
    scenario s = small(workload, policy);
    s.trace = trace_level::decisions;
    sim_options o;
    o.cores = 2;
    o.trace_path = temp_path("dec-rec-" + policy);
    REQUIRE(simulate(s, o).ok());
    scenario full = s;
    full.trace = trace_level::full;
    sim_options ro = o;
    ro.replay_from = o.trace_path;
    ro.trace_path = temp_path("dec-rep-" + policy);
    sim_result rep = simulate(full, ro);
    REQUIRE(rep.ok());
    traces::trace_reader a(o.trace_path), b(ro.trace_path);
    REQUIRE(a.header().level == trace_level::decisions);
    REQUIRE(b.header().level == trace_level::full);
    // the replay's own events do name messages there, so the comparison has something to drop
    std::uint64_t named = 0;
    for (std::uint16_t w : {std::uint16_t(0), std::uint16_t(1)}) {
      traces::lane_cursor c(b, w);
      while (const trace_event* e = c.next())
        if (e->kind == event_kind::run_begin || e->kind == event_kind::schedule) named += e->message != 0;
    }
    CHECK(named > 0);
    expect_identical(a, b);
    std::remove(o.trace_path.c_str());
    std::remove(ro.trace_path.c_str());
  }
}

TEST_CASE("compare_replay names the first event where a replay differs from its recording" * doctest::timeout(300)) {
  scenario s = small("forward", "stealing");
  sim_options o;
  o.cores = 2;
  o.trace_path = temp_path("cmp-a");
  REQUIRE(simulate(s, o).ok());
  sim_options other = o;
  other.cores = 3;  // a different machine: the same workload, other times and decisions
  s.sched.workers = 3;
  other.trace_path = temp_path("cmp-b");
  REQUIRE(simulate(s, other).ok());
  traces::trace_reader a(o.trace_path), b(other.trace_path);
  traces::replay_match m = traces::compare_replay(a, b);
  CHECK_FALSE(m.identical);
  CHECK(m.lanes_equal < m.lanes);
  CHECK(m.first_difference.find("event #") != std::string::npos);
  std::remove(o.trace_path.c_str());
  std::remove(other.trace_path.c_str());
}

TEST_CASE("a replay forces the recorded turns where the policy would choose otherwise" * doctest::timeout(300)) {
  // Recorded under stealing (each worker keeps one pair's ball going); replayed over the
  // shared queue (one FIFO for both workers: the pairs take turns on either worker), which
  // on its own runs actors in another order. The replay must force the recording's turns.
  scenario s = small("pingpong", "stealing");
  sim_options o;
  o.cores = 2;
  o.trace_path = temp_path("force-rec");
  REQUIRE(simulate(s, o).ok());
  scenario fifo = s;
  fifo.sched.policy = "shared-queue";
  sim_options ro = o;
  ro.replay_from = o.trace_path;
  ro.trace_path = temp_path("force-rep");
  sim_result rep = simulate(fifo, ro);
  REQUIRE(rep.ok());  // every message processed once, checksum equal to the reference
  // the shared queue without forcing decides differently: that is what makes the test meaningful
  sim_options free = o;
  free.trace_path = temp_path("force-free");
  REQUIRE(simulate(fifo, free).ok());
  traces::trace_reader recorded(o.trace_path), replayed(ro.trace_path), unforced(free.trace_path);
  REQUIRE((turns(recorded, 0) != turns(unforced, 0) || turns(recorded, 1) != turns(unforced, 1)));
  std::string notes;
  for (auto& n : rep.replay.notes) notes += n + "\n";
  CAPTURE(notes);
  CHECK(rep.replay.diverged);
  CHECK(rep.replay.followed == rep.replay.recorded);
  CHECK(rep.replay.skipped == 0);
  for (std::uint16_t w = 0; w < 2; ++w) {
    CAPTURE(w);
    CHECK(turns(replayed, w) == turns(recorded, w));  // each worker ran the recorded actors, in order
  }
  for (auto* p : {&o.trace_path, &ro.trace_path, &free.trace_path}) std::remove(p->c_str());
}

TEST_CASE("a real run's trace replays in the simulator: decisions followed, every message processed once" *
          doctest::timeout(300)) {
  scenario s = small("skewed", "stealing");
  const std::string real = temp_path("real");
  run_result r = run_on_threads(s, trace_request{real, trace_level::full});
  REQUIRE(r.ok());
  sim_options o;
  o.cores = 2;
  o.replay_from = real;
  o.trace_path = temp_path("real-rep");
  sim_result rep = simulate(s, o);
  REQUIRE(rep.ok());
  CHECK(rep.run.messages == r.messages);
  CHECK(rep.replay.recorded > 0);
  CHECK(rep.replay.followed + rep.replay.skipped <= rep.replay.recorded);
  // where the recording and the replay part ways, the log says so
  if (rep.replay.diverged || rep.replay.ran_out || rep.replay.skipped) CHECK_FALSE(rep.replay.notes.empty());
  CHECK(rep.replay.followed > 0);
  std::remove(real.c_str());
  std::remove(o.trace_path.c_str());
}

TEST_CASE("a worker with no recorded turns waits while the others follow theirs" * doctest::timeout(300)) {
  // A 1-worker recording replayed on 2 workers: worker 1 has no turns to run (like a real
  // run where one worker never got any). The recorded turns must all be followed, by
  // worker 0, and the replay must not give up on them because worker 1's script is empty.
  scenario s = small("forward", "stealing");
  s.sched.workers = 1;
  sim_options o;
  o.cores = 2;
  o.trace_path = temp_path("one-rec");
  REQUIRE(simulate(s, o).ok());
  scenario two = s;
  two.sched.workers = 2;
  sim_options ro = o;
  ro.replay_from = o.trace_path;
  ro.trace_path = temp_path("one-rep");
  sim_result rep = simulate(two, ro);
  REQUIRE(rep.ok());
  std::string notes;
  for (auto& n : rep.replay.notes) notes += n + "\n";
  CAPTURE(notes);
  CHECK(rep.replay.followed == rep.replay.recorded);
  traces::trace_reader recorded(o.trace_path), replayed(ro.trace_path);
  CHECK(turns(replayed, 0) == turns(recorded, 0));
  std::remove(o.trace_path.c_str());
  std::remove(ro.trace_path.c_str());
}

TEST_SUITE_END();
