// The per-worker state visitor on hand-built events: segments, nested spans, cut spans at the end, lanes in any interleaving, a trace file walked since the run began.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "traces_test_support.hpp"
#include "traces/format.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_writer.hpp"
#include "traces/worker_states.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;

namespace {

using test::ev;

const char* kind_word(span_kind k) {
  switch (k) {
    case span_kind::turn: return "turn";
    case span_kind::message: return "message";
    case span_kind::idle: return "idle";
    case span_kind::parked: return "parked";
  }
  return "?";
}

/// Writes what it is told as lines: "w1 running 20-30 a7", "w1 turn 20-30 a7 m2 off5", ...
struct log_visitor : worker_visitor {
  std::vector<std::string> segments, spans;
  std::vector<std::string> events;
  void segment(const status_segment& s) override {
    segments.push_back("w" + std::to_string(s.lane) + " " + status_name(s.status) + " " +
                       std::to_string(s.begin_ns) + "-" + std::to_string(s.end_ns) + " a" + std::to_string(s.actor));
  }
  void span(const worker_span& s) override {
    std::string line = "w" + std::to_string(s.lane) + " " + kind_word(s.kind) + " " + std::to_string(s.begin_ns) +
                       "-" + std::to_string(s.end_ns);
    if (s.kind == span_kind::turn) line += " a" + std::to_string(s.actor) + " m" + std::to_string(s.messages);
    if (s.kind == span_kind::message) line += " id" + std::to_string(s.message);
    if (s.off_cpu_ns) line += " off" + std::to_string(s.off_cpu_ns);
    if (!s.ended) line += " cut";
    spans.push_back(line);
  }
  void event(const trace_event& e) override { events.push_back(std::to_string(e.time_ns)); }
};

using strings = std::vector<std::string>;

/// One worker's life: a turn of two messages, an idle spell with a park, a second idle spell
/// that a turn ends, a turn still open at the end.
std::vector<trace_event> life(std::uint16_t w, std::uint64_t t0) {
  auto t = [t0](std::uint64_t d) { return t0 + d; };
  return {ev(event_kind::worker_start, t(0), w),
          ev(event_kind::run_begin, t(10), w, 7),
          ev(event_kind::message_begin, t(11), w, 7, 101),
          ev(event_kind::message_end, t(15), w, 7, 101, 3),
          ev(event_kind::send, t(16), w, 8, 201),
          ev(event_kind::message_begin, t(17), w, 7, 102),
          ev(event_kind::message_end, t(19), w, 7, 102, 2),
          ev(event_kind::run_end, t(20), w, 7, 0, 2),
          ev(event_kind::idle, t(30), w),
          ev(event_kind::park, t(40), w),
          ev(event_kind::unpark, t(50), w),
          ev(event_kind::idle, t(55), w),  // still the same spell
          ev(event_kind::steal, t(60), w, 9, 0, 1),
          ev(event_kind::run_begin, t(61), w, 9),
          ev(event_kind::message_begin, t(62), w, 9, 301)};
}

}  // namespace

TEST_CASE("a worker's turns, messages, idle spell and park: segments exclusive, spans nested, each when it ends") {
  worker_states s;
  log_visitor v;
  for (const auto& e : life(1, 0)) s.apply(e, v);
  CHECK(v.spans == strings{"w1 message 11-15 id101 off3", "w1 message 17-19 id102 off2", "w1 turn 10-20 a7 m2 off5",
                           "w1 parked 40-50", "w1 idle 30-60"});
  CHECK(v.segments == strings{"w1 looking for work 0-10 a0", "w1 running 10-20 a7",
                              "w1 looking for work 20-30 a7", "w1 idle 30-40 a7", "w1 parked 40-50 a7",
                              "w1 idle 50-60 a7", "w1 looking for work 60-61 a7"});
  const worker_lane& l = s.lane(1);
  CHECK(l.status == worker_status::running);
  CHECK(l.actor == 9);
  CHECK(l.since == 61);
  CHECK(s.lane(0).status == worker_status::not_started);
  CHECK(s.lane(40000).status == worker_status::not_started);

  SUBCASE("finish cuts the open message and turn, and the current segment") {
    v.spans.clear();
    v.segments.clear();
    s.finish(70, v);
    CHECK(v.spans == strings{"w1 message 62-70 id301 cut", "w1 turn 61-70 a9 m1 cut"});
    CHECK(v.segments == strings{"w1 running 61-70 a9"});
  }
}

TEST_CASE("the state inside an idle spell: parked since, woke at, the spell's start") {
  worker_states s;
  worker_visitor nothing;
  auto events = life(0, 100);
  for (std::size_t i = 0; i < 10; ++i) s.apply(events[i], nothing);  // up to the park
  CHECK(s.lane(0).status == worker_status::parked);
  CHECK(s.lane(0).spell_ns == 130);
  CHECK(s.lane(0).parked_ns == 140);
  s.apply(events[10], nothing);  // unpark
  CHECK(s.lane(0).status == worker_status::idle);
  CHECK(s.lane(0).woke_ns == 150);
  CHECK(s.lane(0).spell_ns == 130);
  s.apply(events[11], nothing);  // idle again: nothing changes
  CHECK(s.lane(0).since == 150);
  CHECK(s.lane(0).woke_ns == 150);
}

TEST_CASE("lanes interleaved in any order give each lane the same spans and segments") {
  auto a = life(0, 0), b = life(1, 5);
  auto per_lane = [](const std::vector<std::string>& lines, char lane) {
    std::vector<std::string> r;
    for (const auto& l : lines)
      if (l[1] == lane) r.push_back(l);
    return r;
  };
  worker_states one_then_other, interleaved;
  log_visitor v1, v2;
  for (const auto& e : b) one_then_other.apply(e, v1);
  for (const auto& e : a) one_then_other.apply(e, v1);
  for (std::size_t i = 0; i < a.size(); ++i) {
    interleaved.apply(a[i], v2);
    interleaved.apply(b[i], v2);
  }
  one_then_other.finish(100, v1);
  interleaved.finish(100, v2);
  for (char lane : {'0', '1'}) {
    CHECK(per_lane(v1.spans, lane) == per_lane(v2.spans, lane));
    CHECK(per_lane(v1.segments, lane) == per_lane(v2.segments, lane));
  }
  CHECK(per_lane(v2.spans, '1').size() == 7);
  // finish goes by lane, ascending, whatever order the lanes came in
  REQUIRE(v1.spans.size() >= 4);
  CHECK(v1.spans[v1.spans.size() - 4].substr(0, 2) == "w0");
  CHECK(v1.spans.back().substr(0, 2) == "w1");
}

TEST_CASE("a message its turn's end cuts, a spell a stop ends, a park outside a spell, the outside lane") {
  worker_states s;
  log_visitor v;
  s.apply(ev(event_kind::worker_start, 0, 0), v);
  s.apply(ev(event_kind::run_begin, 1, 0, 4), v);
  s.apply(ev(event_kind::message_begin, 2, 0, 4, 9), v);
  s.apply(ev(event_kind::run_end, 3, 0, 4, 0, 1), v);
  CHECK(v.spans == strings{"w0 message 2-3 id9 cut", "w0 turn 1-3 a4 m1"});
  v.spans.clear();
  s.apply(ev(event_kind::park, 5, 0), v);  // no idle event first: parked, with no idle span
  CHECK(s.lane(0).status == worker_status::parked);
  CHECK(s.lane(0).spell_ns == 5);
  s.apply(ev(event_kind::send, 6, outside_lane, 4, 1), v);  // the outside lane has no worker state
  s.apply(ev(event_kind::unpark, 8, 0), v);
  CHECK(s.lane(0).status == worker_status::idle);
  s.apply(ev(event_kind::worker_stop, 9, 0), v);
  CHECK(s.lane(0).status == worker_status::stopped);
  CHECK(v.spans == strings{"w0 parked 5-8"});
  v.segments.clear();
  s.finish(20, v);  // a stopped worker has no segment to cut
  CHECK(v.segments.empty());
  CHECK(s.lane(outside_lane).status == worker_status::not_started);
}

TEST_CASE("visit_worker_states walks a trace file in time order, times since the run began") {
  test::temp_file f("worker-states");
  {
    trace_writer w(f.path(), test::synthetic_header());
    auto a = life(0, 1000), b = life(1, 1003);
    w.write_events(outside_lane, std::vector<trace_event>{ev(event_kind::send, 1000, outside_lane, 7, 1)});
    w.write_events(1, b);  // lane 1's block first in the file
    w.write_events(0, a);
    w.finish(test::synthetic_footer());
  }
  trace_reader r(f.path());
  log_visitor v;
  visit_worker_states(r, v);
  REQUIRE(v.events.size() == 31);
  CHECK(v.events.front() == "0");
  CHECK(v.events.back() == "65");  // lane 1's last message_begin, 1003 + 62 - 1000
  for (std::size_t i = 1; i < v.events.size(); ++i) CHECK(std::stoull(v.events[i - 1]) <= std::stoull(v.events[i]));
  // cut at the last event: both workers' open turns
  CHECK(v.spans[v.spans.size() - 3] == "w0 turn 61-65 a9 m1 cut");
  CHECK(v.spans.back() == "w1 turn 64-65 a9 m1 cut");
  CHECK(std::count(v.spans.begin(), v.spans.end(), "w1 parked 43-53") == 1);
}
