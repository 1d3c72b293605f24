// The recorder: sparse clock stamps and interpolation, exact times for the simulator, bounded memory with no event
// lost.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "traces/event_lane.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/recorder.hpp"
#include "traces/trace_reader.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using twinsched::test::temp_file;

namespace {

/// A clock at exactly 2 ticks per ns, whose reads the test controls.
class fake_clock final : public tick_clock {
 public:
  std::uint64_t base_ = 0;  // raw ticks at trace time 0
  std::uint64_t now() const override { return 0; }
  std::uint64_t base() const override { return base_; }
  double ns_per_tick() const override { return 0.5; }
  void refine() override {}
  std::string name() const override { return "fake"; }
  std::string note() const override { return "fake clock"; }
};

trace_event ev(event_kind k, std::uint32_t actor = 0, std::uint64_t msg = 0) {
  trace_event e;
  e.kind = k;
  e.actor = actor;
  e.message = msg;
  return e;
}

std::vector<trace_event> lane_events(const std::string& path, std::uint16_t lane) {
  trace_reader r(path);
  r.verify();
  std::vector<trace_event> v;
  lane_cursor c(r, lane);
  while (const trace_event* e = c.next()) v.push_back(*e);
  return v;
}

/// One lane of a recorder on the fake clock, stamping every 1 us (2000 ticks) when busy, with a
/// concurrent writer (it wakes every 50 us); keeps each pushed event's true time.
struct sampled_run {
  temp_file f;
  fake_clock clock;
  std::uint64_t ticks = 1000;
  std::vector<std::uint64_t> truth;  // ns
  std::optional<recorder> rec;
  explicit sampled_run(const char* name) : f(name) {
    trace_header h = test::synthetic_header("threads");
    h.lanes = 1;
    h.workers = 1;
    recorder_options o;
    o.stamp_interval_ns = 1000;
    o.mode = writer_mode::concurrent;
    rec.emplace(f.path(), h, &clock, o);
  }
  /// Pushes `e`, `step` ticks after the previous event.
  void push(const trace_event& e, std::uint64_t step) {
    ticks += step;
    truth.push_back(ticks / 2);
    rec->lane(0).push_sampled(e, [&] { return ticks; });
  }
  /// Finishes the trace and reads the lane back, every event there.
  std::vector<trace_event> events() {
    rec->finish(run_result{});
    rec.reset();
    auto v = lane_events(f.path(), 0);
    REQUIRE(v.size() == truth.size());
    return v;
  }
};

}  // namespace

TEST_CASE("lanes hold raw clock ticks, and the writer subtracts the clock's base, across the 56-bit field's wrap") {
  // The hot path stamps events with the clock's raw reading (no load of the base per event);
  // a lane keeps 56 bits of it, so the writer's subtraction must be modulo 2^56. Raw ticks
  // here start 500 below 2^56 and cross it.
  temp_file f("raw_ticks");
  fake_clock clock;
  clock.base_ = (std::uint64_t(1) << 56) - 500 + (std::uint64_t(7) << 58);  // high bits beyond the field too
  trace_header h = test::synthetic_header("threads");
  h.lanes = 1;
  h.workers = 1;
  std::vector<std::uint64_t> truth;  // ns
  {
    recorder rec(f.path(), h, &clock, {});
    for (std::uint64_t i = 0; i < 20; ++i) {
      const std::uint64_t ticks = 100 * i;  // since the base; i = 5 is the first past the wrap
      truth.push_back(ticks / 2);
      rec.lane(0).push_sampled(ev(event_kind::idle), [&] { return clock.base_ + ticks; });  // idle: always stamped
    }
    rec.finish(run_result{});
  }
  const auto v = lane_events(f.path(), 0);
  REQUIRE(v.size() == truth.size());
  for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i].time_ns == truth[i]);
}

TEST_CASE("a lane whose event rate drops suddenly stamps again within a writer tick" * doctest::timeout(30)) {
  // A burst of fast events makes the lane read its clock only every ~100 events; then the
  // events slow to one per millisecond. Without the writer's tick the next ~100 events would
  // be interpolated between distant reads (off by up to 100 ms here); with it the lane
  // stamps soon after the change and re-adapts, so the slow events get exact times.
  sampled_run r("slowdown");
  r.push(ev(event_kind::worker_start), 0);
  // 10 ns apart; 1037 of them, so that no clock read due by count falls on the first slow event
  for (int i = 0; i < 1037; ++i) r.push(ev(event_kind::run_begin, std::uint32_t(i)), 20);
  for (int i = 0; i < 30; ++i) {  // then 1 or 3 ms apart (uneven: interpolation cannot guess
    // them), with real time passing too, so the writer ticks between them
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    r.push(ev(event_kind::run_end, std::uint32_t(i)), i % 2 ? 6'000'000 : 2'000'000);
  }
  r.push(ev(event_kind::worker_stop), 20);
  const auto v = r.events();
  // after the first slow events (the change is noticed at the next tick), the slow events'
  // times are exact: all of them when the writer thread gets the CPU every 2 ms, and
  // without the tick none (interpolated between the burst and the end). Half is the bar,
  // so that a loaded machine delaying the writer now and then does not fail the test.
  std::size_t exact = 0;
  for (std::size_t i = 1040; i < 1068; ++i) exact += v[i].time_ns == r.truth[i];
  CHECK(exact >= 14);
}

TEST_CASE("a message's user code is timed from its begin, not interpolated across it" * doctest::timeout(30)) {
  // pi's pattern: a turn of coarse jobs, each message_begin, then ~1 ms of the user's code,
  // then a send and message_end a few ns apart. The lane reads its clock only when the
  // writer's tick or its count says so, so a job's message_begin is rarely stamped; placed
  // by position between the stamps around it, it would land in the middle of the job, and
  // every job would look half as long as it was (the writer now puts the excess of such an
  // interval after its message_begin events).
  sampled_run r("jobs");
  std::vector<std::uint64_t> job;  // each job's true length, ns
  r.push(ev(event_kind::worker_start), 0);
  r.push(ev(event_kind::run_begin, 1), 40);
  for (int i = 0; i < 200; ++i) r.push(ev(event_kind::send, 1, std::uint64_t(i)), 20);  // a fast burst first
  for (int i = 0; i < 40; ++i) {
    const std::uint64_t ms = i % 3 ? 1 : 2;  // uneven lengths, so no pace guesses them
    r.push(ev(event_kind::message_begin, 1, std::uint64_t(i)), 60);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));  // real time passes: the writer ticks
    r.push(ev(event_kind::send, 1, std::uint64_t(i)), ms * 2'000'000);
    r.push(ev(event_kind::message_end, 1, std::uint64_t(i)), 30);
    job.push_back(ms * 1'000'000 + 15);
  }
  r.push(ev(event_kind::run_end, 1), 20);
  r.push(ev(event_kind::worker_stop), 20);
  const auto v = r.events();
  std::size_t close = 0, n = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].kind != event_kind::message_begin) continue;
    const std::uint64_t measured = v[i + 2].time_ns - v[i].time_ns, want = job[n++];
    close += measured * 100 >= want * 99 && measured * 100 <= want * 101;
  }
  CHECK(n == 40);
  // a job is within 1% of its length: 40 of 40 on a quiet machine, 0 of 40 placed by position.
  // When a loaded machine keeps the writer from ticking during a job, the stamp that ends it
  // comes later and the interval holds jobs of both lengths, shared evenly: 32 of 40 once
  // under a parallel build. Three in five is the bar.
  CHECK(close >= 24);
}

TEST_CASE("at decisions level a turn's user code is timed from its run_begin" * doctest::timeout(30)) {
  // The same pattern as above as a decisions-level trace records it: no message events, so
  // each job is a turn, run_begin then ~1 ms then run_end, and the run_end is held and
  // written with the next run_begin (lane_codec.hpp, "A turn's end"). Placed by position,
  // each turn would look half as long as it was (`trace info`'s running share of pi on 2
  // workers read ~50% for ~99%); the writer puts such an interval's excess after its
  // run_begin events when it has no message_begin.
  sampled_run r("turns");
  std::vector<std::uint64_t> turn;  // each turn's true length, ns
  r.push(ev(event_kind::worker_start), 0);
  r.push(ev(event_kind::run_begin, 1), 40);
  for (int i = 0; i < 200; ++i) r.push(ev(event_kind::schedule, std::uint32_t(2 + i % 8), 0), 20);  // a fast burst
  r.push(ev(event_kind::run_end, 1), 20);
  for (int i = 0; i < 40; ++i) {
    const std::uint64_t ms = i % 3 ? 1 : 2;  // uneven lengths, so no pace guesses them
    const std::uint32_t a = std::uint32_t(2 + i % 8);
    r.push(ev(event_kind::run_begin, a), 60);
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));  // real time passes: the writer ticks
    trace_event end = ev(event_kind::run_end, a);
    end.other = 1;
    r.push(end, ms * 2'000'000);
    turn.push_back(ms * 1'000'000);
  }
  r.push(ev(event_kind::worker_stop), 20);
  const auto v = r.events();
  std::size_t close = 0, n = 0;
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i].kind != event_kind::run_begin || v[i].actor == 1) continue;
    REQUIRE(v[i + 1].kind == event_kind::run_end);
    const std::uint64_t measured = v[i + 1].time_ns - v[i].time_ns, want = turn[n++];
    close += measured * 100 >= want * 99 && measured * 100 <= want * 101;
  }
  CHECK(n == 40);
  // the bar and its reason as above: 40 of 40 on a quiet machine, 0 of 40 placed by position
  CHECK(close >= 24);
}

TEST_CASE("where the busy loops' time is known, the runtime's slow moments fall between handlings, and a "
          "handling's busy-loop gaps inside it" * doctest::timeout(30)) {
  // skewed's pattern on a loaded machine: handlings that each burn 2 us, with now and then a
  // slow moment of the runtime between two of them (a slab of envelopes, a thread's first
  // steps: 300 us here) and a preemption inside one busy loop (100 us). Placed by position
  // or after the message_begins, the slow moment would lengthen the handlings around it
  // (the critical path of a real trace grew 2-5x that way); the lane's notes of what the busy
  // loops ran put it between them, and the preemption stays inside its handling, whose end
  // says how long it was off a CPU.
  sampled_run r("burned");
  r.push(ev(event_kind::worker_start), 0);
  r.push(ev(event_kind::run_begin, 1), 40);
  for (std::uint64_t i = 0; i < 60; ++i) {
    r.push(ev(event_kind::message_begin, 1, i + 1), i == 20 || i == 41 ? 600'000 : 60);
    r.rec->lane(0).add_burned(2000);
    if (i == 30) r.rec->lane(0).add_off_cpu(100'000);
    r.push(ev(event_kind::message_end, 1, i + 1), i == 30 ? 204'000 : 4000);
  }
  r.push(ev(event_kind::run_end, 1), 20);
  r.push(ev(event_kind::worker_stop), 20);
  const auto v = r.events();
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    if (v[i].kind != event_kind::message_begin) continue;
    REQUIRE(v[i + 1].kind == event_kind::message_end);
    const std::uint64_t took = v[i + 1].time_ns - v[i].time_ns;
    CAPTURE(n);
    if (n == 30) {
      CHECK(v[i + 1].other == 100'000);
      CHECK(took >= 100'000);
      CHECK(took - v[i + 1].other <= 2'500);  // what it ran: its 2 us, and a little of the runtime's
    } else {
      CHECK(v[i + 1].other == 0);
      CHECK(took <= 2'500);
    }
    ++n;
  }
  CHECK(n == 60);
}

TEST_CASE("sampled lanes stamp rare kinds and the event after idle, and interpolate the rest monotonically") {
  temp_file f("sampled");
  fake_clock clock;
  trace_header h = test::synthetic_header("threads");
  h.lanes = 1;
  h.workers = 1;
  recorder_options o;
  o.stamp_interval_ns = 1000;                                // 2000 ticks
  std::vector<std::pair<std::size_t, std::uint64_t>> reads;  // (event index, ticks) of every clock read
  std::uint64_t ticks = 1000;
  {
    recorder rec(f.path(), h, &clock, o);
    event_lane& lane = rec.lane(0);
    std::size_t index = 0;
    auto push = [&](const trace_event& e, std::uint64_t step) {
      ticks += step;
      lane.push_sampled(e, [&] {
        reads.emplace_back(index, ticks);
        return ticks;
      });
      ++index;
    };
    push(ev(event_kind::worker_start), 0);
    for (int i = 0; i < 500; ++i) {  // a busy stretch: 20 ticks (10 ns) per event
      push(ev(event_kind::run_begin, std::uint32_t(i)), 20);
      push(ev(event_kind::run_end, std::uint32_t(i)), 20);
    }
    push(ev(event_kind::idle), 20);
    push(ev(event_kind::park), 20);
    push(ev(event_kind::unpark), 100000);
    push(ev(event_kind::run_begin, 7), 50000);  // the event after an idle spell: stamped
    push(ev(event_kind::run_end, 7), 20);
    push(ev(event_kind::worker_stop), 20);
    rec.finish(run_result{});
  }
  auto v = lane_events(f.path(), 0);
  REQUIRE(v.size() == 1007);
  // stamped: first event, idle, park, unpark, the event after idle... and some busy ones
  std::vector<bool> stamped(v.size(), false);
  for (auto [i, t] : reads) {
    stamped[i] = true;
    CHECK(v[i].time_ns == t / 2);  // exact where read
  }
  CHECK(stamped[0]);
  CHECK(stamped[1001]);  // idle
  CHECK(stamped[1002]);  // park
  CHECK(stamped[1003]);  // unpark
  CHECK(stamped[1004]);  // the run_begin that ended the idle spell
  CHECK(stamped[1006]);  // worker_stop
  // busy stretches: few reads (one per ~2000 ticks = 100 events at 20 ticks each)
  std::size_t busy_reads = 0;
  for (std::size_t i = 1; i < 1001; ++i) busy_reads += stamped[i];
  CHECK(busy_reads < 40);
  CHECK(busy_reads >= 5);
  // interpolated: close to the truth (20 ticks = 10 ns per event) and never decreasing
  for (std::size_t i = 1; i < v.size(); ++i) CHECK(v[i].time_ns >= v[i - 1].time_ns);
  for (std::size_t i = 1; i < 1001; ++i) {
    const std::uint64_t truth = (1000 + 20 * i) / 2;
    CHECK(v[i].time_ns + 20 >= truth);
    CHECK(v[i].time_ns <= truth + 20);
  }
  trace_reader r(f.path());
  CHECK(r.footer().lanes[0].clock_reads == reads.size());
  CHECK(r.header().clock == "fake");
}

TEST_CASE("exact lanes keep the simulator's times as given") {
  temp_file f("exact");
  trace_header h = test::synthetic_header("sim");
  h.lanes = 2;
  {
    recorder rec(f.path(), h, nullptr);
    for (std::uint64_t t = 0; t < 10000; ++t) {
      trace_event e = ev(event_kind::message_begin, std::uint32_t(t % 7), (std::uint64_t(1) << 48) | t);
      e.time_ns = t * 3;
      e.worker = std::uint16_t(t % 2);
      rec.lane(e.worker).push_exact(e);
    }
    rec.finish(run_result{});
  }
  trace_reader r(f.path());
  CHECK(r.header().clock == "simulated");
  auto v0 = lane_events(f.path(), 0), v1 = lane_events(f.path(), 1);
  REQUIRE(v0.size() == 5000);
  REQUIRE(v1.size() == 5000);
  for (std::size_t i = 0; i < v0.size(); ++i) {
    CHECK(v0[i].time_ns == 6 * i);
    CHECK(v1[i].time_ns == 6 * i + 3);
    CHECK(v1[i].message == ((std::uint64_t(1) << 48) | (2 * i + 1)));
  }
}

namespace {

/// Three producer threads, 200000 events each, through a recorder configured by `o`; then
/// every event must be in the file, in order.
void produce_and_check(const std::string& path, const recorder_options& o) {
  trace_header h = test::synthetic_header("sim");
  h.lanes = 3;
  constexpr std::uint64_t per_lane = 200000;
  {
    recorder rec(path, h, nullptr, o);
    std::vector<std::thread> producers;
    for (std::uint16_t l = 0; l < 3; ++l)
      producers.emplace_back([&rec, l] {
        event_lane& lane = rec.lane(l);
        for (std::uint64_t t = 0; t < per_lane; ++t) {
          trace_event e = ev(event_kind::schedule, std::uint32_t(t), t + 1);
          e.time_ns = t;
          e.worker = l;
          lane.push_exact(e);
        }
      });
    for (auto& t : producers) t.join();
    rec.finish(run_result{});
    CHECK(rec.events_written() == (o.discard ? 0 : 3 * per_lane));
    // counted as the writer decodes them (the producers do not count); discarded ones are
    // not decoded, so only their bytes are known
    CHECK(rec.memory().events == (o.discard ? 0 : 3 * per_lane));
    CHECK(rec.memory().bytes >= 3 * per_lane * 4);
  }
  trace_reader r(path);
  if (o.discard) {  // the header and the footer, no events
    r.verify();
    CHECK(r.events() == 0);
    return;
  }
  r.verify();
  CHECK(r.events() == 3 * per_lane);
  for (const auto& l : r.footer().lanes) CHECK(l.events == per_lane);
  auto v = lane_events(path, 2);
  for (std::uint64_t t = 0; t < per_lane; ++t) {
    if (v[t].actor != t || v[t].time_ns != t) FAIL("lane 2 event " << t << " is wrong");
  }
}

}  // namespace

TEST_SUITE("concurrency") {
  TEST_CASE("producers faster than a concurrent writer wait for free chunks and lose nothing" * doctest::timeout(60)) {
    temp_file f("stall");
    recorder_options o;
    o.mode = writer_mode::concurrent;
    o.chunk_bytes = 256;  // ~50 events
    o.memory_budget = 1;  // the minimum: 4 chunks per lane
    produce_and_check(f.path(), o);
  }

  TEST_CASE("a discarding recorder (the benchmark's hot path rows) writes no events and hands every chunk back" *
            doctest::timeout(60)) {
    temp_file f("discard");
    recorder_options o;
    o.discard = true;
    o.chunk_bytes = 1024;
    o.deferred_budget = 3 * 16 * 1024;  // drained during the run, as well as at its end
    produce_and_check(f.path(), o);
  }

  TEST_CASE("a deferred writer whose rings fill up drains them during the run and loses nothing" *
            doctest::timeout(60)) {
    temp_file f("deferred");
    recorder_options o;
    o.mode = writer_mode::deferred;
    o.chunk_bytes = 1024;
    o.deferred_budget = 3 * 16 * 1024;  // 16 chunks per lane: far fewer than produced
    produce_and_check(f.path(), o);
  }

  TEST_CASE("by default the writer leaves full chunks to the end of the run, spare core or not" * doctest::timeout(60)) {
    // One writer converts fewer events a second than one worker records: writing while the run
    // goes on made the workers wait for it even with a core to spare (recorder.hpp).
    temp_file f("default-mode");
    fake_clock clock;
    trace_header h = test::synthetic_header("threads");
    h.lanes = h.workers = 1;  // fewer workers than this machine's hardware threads, if it has two
    recorder_options o;
    o.chunk_bytes = 256;
    recorder rec(f.path(), h, &clock, o);
    std::uint64_t ticks = 0;
    for (int i = 0; i < 2000; ++i) rec.lane(0).push_sampled(ev(event_kind::schedule, 7, 0), [&] { return ticks += 10; });
    const std::uint64_t published = rec.lane(0).backlog();
    REQUIRE(published >= 8);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));  // the writer wakes every 1 ms (50 us concurrent)
    CHECK(rec.lane(0).backlog() == published);
    rec.finish(run_result{});
    CHECK(lane_events(f.path(), 0).size() == 2000);
  }
}  // TEST_SUITE

TEST_SUITE_END();
