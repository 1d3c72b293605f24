// Traces of real runs: what a recorded run contains, and info/diff on pairs of runs.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

#include "runtime/run_threads.hpp"
#include "traces/diff.hpp"
#include "traces/format.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_stats.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using twinsched::test::temp_file;

namespace {

scenario small_forward(std::int64_t hops = 400) {
  scenario s;
  s.name = "traced-forward";
  s.workload = "forward";
  s.workload_params = {{"actors", std::int64_t(64)}, {"tokens", std::int64_t(16)}, {"hops", hops}};
  s.sched.workers = 2;
  s.sched.idle.min_park_ns = 1000;
  s.sched.idle.max_park_ns = 20'000;
  return s;
}

run_result record(const scenario& s, const std::string& path, trace_level level) {
  run_result r = run_on_threads(s, trace_request{path, level});
  REQUIRE(r.ok());
  return r;
}

}  // namespace

TEST_SUITE("concurrency") {
  TEST_CASE("a full trace of a real run holds every send and message, each lane well formed" * doctest::timeout(60)) {
    temp_file f("run-full");
    scenario s = small_forward();
    run_result res = record(s, f.path(), trace_level::full);
    trace_reader r(f.path());
    r.verify();
    CHECK(r.header().backend == "threads");
    CHECK(r.header().clock == "tsc");
    CHECK(r.header().level == trace_level::full);
    CHECK(r.header().scenario == "traced-forward");
    const trace_footer& ft = r.footer();
    CHECK(ft.messages == res.messages);
    CHECK(ft.count(unsigned(event_kind::send)) == res.messages);  // the 16 injected ones included
    CHECK(ft.count(unsigned(event_kind::message_begin)) == res.messages);
    CHECK(ft.count(unsigned(event_kind::message_end)) == res.messages);
    CHECK(ft.count(unsigned(event_kind::run_begin)) == ft.count(unsigned(event_kind::run_end)));
    CHECK(ft.count(unsigned(event_kind::schedule)) == ft.count(unsigned(event_kind::run_begin)));
    CHECK(ft.count(unsigned(event_kind::worker_start)) == 2);
    CHECK(ft.count(unsigned(event_kind::worker_stop)) == 2);
    std::uint64_t steals = 0;
    for (const auto& w : ft.per_worker) steals += w.steals;
    CHECK(ft.count(unsigned(event_kind::steal)) == steals);  // steal = "one": one event per steal
    // per-actor deliveries add up to the messages
    REQUIRE(ft.has_actors);
    CHECK(ft.actors.size() == 64);
    std::uint64_t delivered = 0;
    for (const auto& a : ft.actors) delivered += a.delivered;
    CHECK(delivered == res.messages);
    // and each actor that got messages has its payload digest (full level only)
    CHECK(ft.has_digests);
    for (const auto& a : ft.actors)
      if (a.delivered) CHECK(a.digest != 0);
    // each worker lane: starts and stops, times never decrease, turns and messages alternate properly
    for (std::uint16_t lane : {std::uint16_t(0), std::uint16_t(1)}) {
      lane_cursor c(r, lane);
      const trace_event* e = c.next();
      REQUIRE(e);
      CHECK(e->kind == event_kind::worker_start);
      std::uint64_t last = e->time_ns;
      bool in_turn = false, in_message = false;
      event_kind final_kind = e->kind;
      while ((e = c.next())) {
        CHECK(e->time_ns >= last);
        last = e->time_ns;
        final_kind = e->kind;
        switch (e->kind) {
          case event_kind::run_begin:
            CHECK_FALSE(in_turn);
            in_turn = true;
            break;
          case event_kind::run_end:
            CHECK(in_turn);
            CHECK_FALSE(in_message);
            in_turn = false;
            break;
          case event_kind::message_begin:
            CHECK(in_turn);
            CHECK_FALSE(in_message);
            in_message = true;
            break;
          case event_kind::message_end:
            CHECK(in_message);
            in_message = false;
            break;
          case event_kind::steal:
            CHECK(e->other != lane);
            CHECK(e->other < 2);
            break;
          case event_kind::park:
          case event_kind::idle:
            CHECK_FALSE(in_turn);
            break;
          default:
            break;
        }
      }
      CHECK(final_kind == event_kind::worker_stop);
    }
    // the workload's start is the outside lane: injected sends and their schedules
    lane_cursor out(r, outside_lane);
    std::uint64_t injected = 0;
    while (const trace_event* e = out.next())
      if (e->kind == event_kind::send) ++injected;
    CHECK(injected == 16);
    trace_stats st = compute_stats(r);
    CHECK(st.events == r.events());
    CHECK(st.queueing.count() == res.messages);  // every delivery matched with its send
    CHECK(st.unmatched == 0);
    CHECK(st.reordered < res.messages / 10);  // deliveries interpolated before their send: rare
  }

  TEST_CASE("a decisions trace records scheduling decisions but no sends or messages" * doctest::timeout(60)) {
    temp_file f("run-decisions");
    record(small_forward(), f.path(), trace_level::decisions);
    trace_reader r(f.path());
    const trace_footer& ft = r.footer();
    CHECK(r.header().level == trace_level::decisions);
    CHECK(ft.count(unsigned(event_kind::send)) == 0);
    CHECK(ft.count(unsigned(event_kind::message_begin)) == 0);
    CHECK(ft.count(unsigned(event_kind::run_begin)) > 0);
    CHECK(ft.count(unsigned(event_kind::schedule)) > 0);
    CHECK(ft.has_actors);  // logical equivalence works at this level too: counts and the checksum
    CHECK_FALSE(ft.has_digests);  // payload digests are tallied at full level (delivery_tally.hpp)
    for (const auto& a : ft.actors) CHECK(a.digest == 0);
    const trace_stats st = compute_stats(r);
    CHECK_FALSE(st.has_messages());
    // per-worker messages come from each turn's run_end, so this level has them too
    std::uint64_t messages = 0;
    for (const auto& [lane, w] : st.workers) messages += w.messages;
    CHECK(messages == ft.messages);
    CHECK(messages > 0);
  }

  TEST_CASE("two runs of the same scenario are logically equivalent" * doctest::timeout(60)) {
    temp_file a("run-a"), b("run-b");
    record(small_forward(), a.path(), trace_level::full);
    scenario s = small_forward();
    s.sched.policy = "shared-queue";  // another policy delivers the same messages
    record(s, b.path(), trace_level::decisions);
    trace_reader ra(a.path()), rb(b.path());
    diff_report d = diff_traces(ra, rb, {});
    CHECK(d.same_workload);
    CHECK_FALSE(d.same_scenario);
    REQUIRE(d.scenario_differences.size() == 1);
    CHECK(d.scenario_differences[0].find("scheduler.policy") == 0);
    CHECK(d.logical.state == logical_check::verdict::equal);
    CHECK(d.exit_code() == 0);
    CHECK_FALSE(d.first.checked);  // real runs: not deterministic
    bool queueing_note = false;
    for (const auto& n : d.notes) queueing_note |= n.find("needs --trace-level full") != std::string::npos;
    CHECK(queueing_note);
    // a tolerance nothing can meet: the metrics are over it, and the exit code says so
    diff_options tight;
    tight.tolerance = 0.0;
    diff_report t = diff_traces(ra, rb, tight);
    CHECK(t.over_tolerance());
    CHECK(t.exit_code() == 1);
  }

  TEST_CASE("changing a workload parameter makes the diff name the first differing actor" * doctest::timeout(60)) {
    temp_file a("run-hops-a"), b("run-hops-b");
    record(small_forward(400), a.path(), trace_level::decisions);
    record(small_forward(401), b.path(), trace_level::decisions);
    trace_reader ra(a.path()), rb(b.path());
    diff_report d = diff_traces(ra, rb, {});
    CHECK_FALSE(d.same_workload);
    REQUIRE(d.logical.state == logical_check::verdict::differ);
    REQUIRE(d.logical.first_actor);
    // the first differing actor is the lowest id whose deliveries differ
    std::uint32_t expect = 0;
    const auto &xa = ra.footer().actors, &xb = rb.footer().actors;
    REQUIRE(xa.size() == xb.size());
    for (std::size_t i = 0; i < xa.size(); ++i)
      if (xa[i].delivered != xb[i].delivered || xa[i].digest != xb[i].digest) {
        expect = xa[i].id;
        break;
      }
    CHECK(*d.logical.first_actor == expect);
    CHECK(d.logical.why.find("actor " + std::to_string(expect) + " ") == 0);
    CHECK(d.exit_code() == 1);
  }

  TEST_CASE("tracing does not change what a run computes, for every policy" * doctest::timeout(120)) {
    for (const auto& policy : policy_names()) {
      CAPTURE(policy);
      scenario s = small_forward(200);
      s.sched.policy = policy;
      if (policy == "donation") continue;  // needs a workload with groups of equal actors
      temp_file f("run-" + policy);
      run_result r = run_on_threads(s, trace_request{f.path(), trace_level::full});
      CHECK(r.ok());
      trace_reader tr(f.path());
      tr.verify();
      CHECK(tr.footer().count(unsigned(event_kind::message_begin)) == r.messages);
    }
  }

}  // TEST_SUITE

TEST_SUITE("concurrency") {
  TEST_CASE("donation moves messages between equal actors: the diff compares their group as a whole" *
            doctest::timeout(60)) {
    temp_file a("pool-donation"), b("pool-stealing");
    scenario s;
    s.name = "traced-pool";
    s.workload = "pool";
    s.workload_params = {{"members", std::int64_t(8)},
                         {"bursts", std::int64_t(3)},
                         {"burst_size", std::int64_t(64)},
                         {"cost_ns", std::int64_t(1000)}};
    s.sched.policy = "donation";
    record(s, a.path(), trace_level::decisions);
    s.sched.policy = "stealing";
    record(s, b.path(), trace_level::decisions);
    trace_reader ra(a.path()), rb(b.path());
    diff_report d = diff_traces(ra, rb, {});
    CHECK(d.same_workload);
    CHECK(d.logical.groups >= 1);
    CHECK(d.logical.state == logical_check::verdict::equal);
    CHECK(ra.footer().count(unsigned(event_kind::donate)) > 0);
  }
}  // TEST_SUITE

TEST_SUITE_END();
