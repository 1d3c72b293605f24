// The stepper's model: step_state on hand-built events (inverted times, steals, parks, mailboxes, donation); breakpoints.
#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "models/whole_number.hpp"
#include "traces/breakpoint.hpp"
#include "traces/format.hpp"
#include "traces_test_support.hpp"
#include "traces/step_state.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;

namespace {

using test::ev;

/// The runnable actors of group `queue`, oldest queued first; empty if the group has none.
std::vector<std::uint32_t> group(const step_state& s, std::uint16_t queue) {
  for (const auto& g : s.runnable())
    if (g.queue == queue) return g.actors;
  return {};
}

std::string parse_error(const std::string& text) {
  try {
    breakpoint::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(parsed)";
}

using status = worker_view::status;

}  // namespace

TEST_CASE("every worker lane of the header is listed, not started, before any event") {
  step_state s(3, true);
  REQUIRE(s.workers().size() == 3);
  for (const auto& w : s.workers()) CHECK(w.state == status::not_started);
  CHECK(s.events() == 0);
  CHECK(s.runnable().empty());
}

TEST_CASE("a worker's state follows its start, turns, idle spell, park and stop") {
  step_state s(2, false);
  s.apply(ev(event_kind::worker_start, 10, 1));
  CHECK(s.workers()[1].state == status::looking);
  CHECK(s.workers()[0].state == status::not_started);
  s.apply(ev(event_kind::run_begin, 20, 1, 7, 0, ~0u));
  CHECK(s.workers()[1].state == status::running);
  CHECK(s.workers()[1].actor == 7);
  CHECK(s.workers()[1].since == 20);
  s.apply(ev(event_kind::run_end, 30, 1, 7));
  CHECK(s.workers()[1].state == status::looking);
  s.apply(ev(event_kind::idle, 40, 1));
  CHECK(s.workers()[1].state == status::idle);
  CHECK(s.workers()[1].since == 40);
  s.apply(ev(event_kind::park, 50, 1));
  CHECK(s.workers()[1].state == status::parked);
  CHECK(s.workers()[1].parked_ns == 50);
  CHECK(s.workers()[1].since == 40);  // the idle spell's start
  s.apply(ev(event_kind::unpark, 60, 1));
  CHECK(s.workers()[1].state == status::idle);
  CHECK(s.workers()[1].woke_ns == 60);
  s.apply(ev(event_kind::steal, 70, 1, 9, 0, 0));  // the idle spell ends at its next other event
  CHECK(s.workers()[1].state == status::looking);
  s.apply(ev(event_kind::worker_stop, 80, 1));
  CHECK(s.workers()[1].state == status::stopped);
  CHECK(s.workers()[1].turns == 1);
  CHECK(s.workers()[1].parks == 1);
  CHECK(s.workers()[1].steals == 1);
  CHECK(s.count(event_kind::park) == 1);
  CHECK(s.events() == 8);
  CHECK(s.now_ns() == 80);
}

TEST_CASE("an event on a lane past the header's lanes adds that worker") {
  step_state s(1, false);
  s.apply(ev(event_kind::worker_start, 5, 3));
  REQUIRE(s.workers().size() == 4);
  CHECK(s.workers()[3].state == status::looking);
  CHECK(s.workers()[2].state == status::not_started);
}

TEST_CASE("a schedule makes an actor runnable in the pushing worker's group, and its run_begin takes it out") {
  step_state s(2, true);
  s.apply(ev(event_kind::schedule, 1, outside_worker, 4, 1, 2));
  s.apply(ev(event_kind::schedule, 2, outside_worker, 3, 2, 2));
  s.apply(ev(event_kind::schedule, 3, 0, 5, (1ull << 48) | 1, 0));
  CHECK(group(s, outside_worker) == std::vector<std::uint32_t>{4, 3});  // oldest queued first
  CHECK(group(s, 0) == std::vector<std::uint32_t>{5});
  CHECK(s.runnable().back().queue == outside_worker);  // the outside group is listed last
  s.apply(ev(event_kind::run_begin, 4, 1, 4, 0, ~0u));
  CHECK(group(s, outside_worker) == std::vector<std::uint32_t>{3});
  CHECK(!s.actor(4)->runnable());
}

TEST_CASE("a run_begin stamped before the schedule that made it runnable never leaves the actor shown runnable") {
  step_state s(2, true);
  // worker 1 ran ahead of worker 0: its run_begin of actor 9 sorts before w0's schedule
  s.apply(ev(event_kind::run_begin, 100, 1, 9, 0, 0));
  CHECK(s.actor(9)->pending == -1);
  CHECK(s.runnable().empty());
  s.apply(ev(event_kind::schedule, 105, 0, 9, 0, 0));
  CHECK(s.actor(9)->pending == 0);
  CHECK(s.runnable().empty());
  // the next schedule is a real one: runnable again
  s.apply(ev(event_kind::run_end, 110, 1, 9));
  s.apply(ev(event_kind::schedule, 120, 0, 9, 0, 1));
  CHECK(group(s, 0) == std::vector<std::uint32_t>{9});
}

TEST_CASE("a steal moves a runnable actor to the thief's group, behind what the thief queued before") {
  step_state s(3, true);
  s.apply(ev(event_kind::schedule, 10, 0, 1));
  s.apply(ev(event_kind::schedule, 11, 0, 2));
  s.apply(ev(event_kind::schedule, 12, 2, 3));
  s.apply(ev(event_kind::steal, 20, 2, 1, 0, 0));  // w2 takes actor 1 from w0
  CHECK(group(s, 0) == std::vector<std::uint32_t>{2});
  CHECK(group(s, 2) == std::vector<std::uint32_t>{3, 1});
  CHECK(s.actor(1)->queue == 2);
  s.apply(ev(event_kind::run_begin, 21, 2, 1, 0, 0));
  CHECK(group(s, 2) == std::vector<std::uint32_t>{3});
}

TEST_CASE("a steal seen before the schedule it follows keeps the actor in the thief's group") {
  step_state s(2, true);
  s.apply(ev(event_kind::steal, 50, 1, 6, 0, 0));
  CHECK(s.runnable().empty());
  s.apply(ev(event_kind::schedule, 52, 0, 6));
  CHECK(group(s, 1) == std::vector<std::uint32_t>{6});
  CHECK(group(s, 0).empty());
  // later schedules go where they are pushed again
  s.apply(ev(event_kind::run_begin, 60, 1, 6));
  s.apply(ev(event_kind::schedule, 70, 0, 6));
  CHECK(group(s, 0) == std::vector<std::uint32_t>{6});
}

TEST_CASE("a migrate moves a runnable actor to the target worker's group") {
  step_state s(3, false);
  s.apply(ev(event_kind::schedule, 10, 0, 8));
  s.apply(ev(event_kind::migrate, 11, 0, 8, 0, 2));
  CHECK(group(s, 2) == std::vector<std::uint32_t>{8});
  CHECK(group(s, 0).empty());
}

TEST_CASE("mailbox sizes count sends minus message begins, clamped at zero while a begin runs ahead") {
  step_state s(2, true);
  REQUIRE(s.mailboxes_known());
  for (std::uint64_t m = 1; m <= 3; ++m) s.apply(ev(event_kind::send, m, 0, 5, m));
  s.apply(ev(event_kind::send, 4, 0, 6, 4));
  s.apply(ev(event_kind::message_begin, 5, 1, 5, 1));
  CHECK(s.actor(5)->mailbox_size() == 2);
  CHECK(s.mailbox_total() == 3);
  CHECK(s.mailboxes_nonempty() == 2);
  auto top = s.largest_mailboxes(10);
  REQUIRE(top.size() == 2);
  CHECK(top[0] == std::pair<std::uint32_t, std::uint64_t>{5, 2});
  CHECK(top[1] == std::pair<std::uint32_t, std::uint64_t>{6, 1});
  CHECK(s.largest_mailboxes(1).size() == 1);
  // a delivery stamped before its send: -1, shown as 0, and back to 0 at the send
  s.apply(ev(event_kind::message_begin, 6, 1, 7, 9));
  CHECK(s.actor(7)->mailbox == -1);
  CHECK(s.actor(7)->mailbox_size() == 0);
  CHECK(s.mailbox_total() == 3);
  s.apply(ev(event_kind::send, 7, 0, 7, 9));
  CHECK(s.actor(7)->mailbox == 0);
  CHECK(s.workers()[1].messages == 2);
}

TEST_CASE("a trace below full level says its mailboxes are not known") {
  step_state s(1, false);
  CHECK(!s.mailboxes_known());
}

TEST_CASE("donations move messages between mailboxes and push each recipient once, in the donor worker's group") {
  step_state s(2, true);
  for (std::uint64_t m = 1; m <= 4; ++m) s.apply(ev(event_kind::send, m, 0, 1, m));
  s.apply(ev(event_kind::run_begin, 5, 0, 1));
  s.apply(ev(event_kind::message_begin, 6, 0, 1, 1));
  // one donation step on w0: actor 1 gives messages 3 and 4 to actor 2, message 2 to actor 3
  s.apply(ev(event_kind::donate, 7, 0, 1, 4, 2));
  s.apply(ev(event_kind::donate, 7, 0, 1, 3, 2));
  s.apply(ev(event_kind::donate, 7, 0, 1, 2, 3));
  CHECK(s.actor(1)->mailbox_size() == 0);
  CHECK(s.actor(2)->mailbox_size() == 2);
  CHECK(s.actor(3)->mailbox_size() == 1);
  CHECK(s.actor(2)->pending == 1);  // pushed once for two messages
  CHECK(group(s, 0) == std::vector<std::uint32_t>{2, 3});
  // w1 steals and runs actor 2: nothing left runnable of it
  s.apply(ev(event_kind::steal, 8, 1, 2, 0, 0));
  s.apply(ev(event_kind::run_begin, 9, 1, 2));
  CHECK(group(s, 1).empty());
  CHECK(!s.actor(2)->runnable());
  // a later step on w0 (after another event of its lane) pushes actor 2 again
  s.apply(ev(event_kind::message_end, 10, 0, 1, 1));
  s.apply(ev(event_kind::donate, 11, 0, 1, 5, 2));
  CHECK(s.actor(2)->pending == 1);
}

TEST_CASE("breakpoints parse from every documented form") {
  using w = breakpoint::what;
  auto b = breakpoint::parse("event 120");
  CHECK((b.on == w::event && b.value == 120));
  CHECK(breakpoint::parse("event #7").value == 7);
  b = breakpoint::parse("time 120000");
  CHECK((b.on == w::time && b.value == 120000));
  CHECK(breakpoint::parse("time 120us").value == 120000);
  CHECK(breakpoint::parse("time 1.5ms").value == 1500000);
  CHECK(breakpoint::parse("time 1.5 ms").value == 1500000);
  CHECK(breakpoint::parse("time 2s").value == 2000000000);
  CHECK(breakpoint::parse("TIME 250ns").value == 250);
  b = breakpoint::parse("actor 17");
  CHECK((b.on == w::actor && b.value == 17));
  b = breakpoint::parse("worker 1");
  CHECK((b.on == w::worker && b.value == 1));
  CHECK(breakpoint::parse("worker w3").value == 3);
  CHECK(breakpoint::parse("worker outside").value == outside_lane);
  b = breakpoint::parse("kind steal");
  CHECK((b.on == w::kind && b.value == unsigned(event_kind::steal)));
  b = breakpoint::parse("steal");
  CHECK((b.on == w::kind && b.value == unsigned(event_kind::steal)));
  CHECK(breakpoint::parse("  park  ").value == unsigned(event_kind::park));
  CHECK(breakpoint::parse("kind run-begin").value == unsigned(event_kind::run_begin));
  CHECK(breakpoint::parse("donate").value == unsigned(event_kind::donate));
}

TEST_CASE("a breakpoint prints back in a form that parses to the same breakpoint") {
  for (const char* text : {"event 3", "time 1.5ms", "time 999", "time 3s", "actor 17", "worker 2", "worker outside",
                           "kind message_begin"}) {
    INFO(text);
    const breakpoint a = breakpoint::parse(text);
    const breakpoint b = breakpoint::parse(a.describe());
    CHECK(a.on == b.on);
    CHECK(a.value == b.value);
  }
  CHECK(breakpoint::parse("steal").describe() == "kind steal");
  CHECK(breakpoint::parse("time 1500us").describe() == "time 1.500000 ms");
}

TEST_CASE("bad breakpoints are rejected with a message that says what was expected") {
  CHECK(parse_error("").find("empty breakpoint") != std::string::npos);
  CHECK(parse_error("stael").find("unknown breakpoint 'stael'") != std::string::npos);
  CHECK(parse_error("stael").find("event N, time T") != std::string::npos);
  CHECK(parse_error("kind stael").find("unknown event kind") != std::string::npos);
  CHECK(parse_error("kind stael").find("run_begin") != std::string::npos);  // lists the kinds
  CHECK(parse_error("event").find("takes one number") != std::string::npos);
  CHECK(parse_error("event 0").find("numbered from 1") != std::string::npos);
  CHECK(parse_error("event 12x").find("not a whole number") != std::string::npos);
  CHECK(parse_error("actor -3").find("not a whole number") != std::string::npos);
  CHECK(parse_error("actor 0").find("actor ids") != std::string::npos);
  CHECK(parse_error("worker 70000").find("worker numbers") != std::string::npos);
  CHECK(parse_error("time").find("takes a time") != std::string::npos);
  CHECK(parse_error("time 5 parsecs").find("unknown unit") != std::string::npos);
  CHECK(parse_error("time ms").find("expected a number") != std::string::npos);
  CHECK(parse_error("time -5").find("expected a number") != std::string::npos);
  CHECK(parse_error("time 99999999999999999999").find("too large") != std::string::npos);
  CHECK(parse_error("steal now").find("unknown breakpoint") != std::string::npos);
}

TEST_CASE("whole numbers (breakpoints, step counts, sweep files, TWINSCHED_TRACE_STAMP_NS) are digits only") {
  CHECK(whole_number("0") == 0u);
  CHECK(whole_number("18446744073709551615") == ~std::uint64_t(0));
  for (const char* bad : {"", "-5", "+5", " 5", "5 ", "5x", "0x10", "1e3", "18446744073709551616"}) {
    CAPTURE(bad);
    CHECK_FALSE(whole_number(bad).has_value());
  }
}

TEST_CASE("a time breakpoint fires once, at the first event at or after its time") {
  const breakpoint b = breakpoint::parse("time 100");
  CHECK(!b.hit(ev(event_kind::idle, 99, 0), 1, std::nullopt));
  CHECK(b.hit(ev(event_kind::idle, 100, 0), 2, 99));
  CHECK(!b.hit(ev(event_kind::idle, 100, 0), 3, 100));  // already crossed
  CHECK(!b.hit(ev(event_kind::idle, 150, 0), 4, 100));
  CHECK(b.hit(ev(event_kind::idle, 150, 0), 1, std::nullopt));  // a trace that starts past it
}

TEST_CASE("event, actor, worker and kind breakpoints match their field") {
  const trace_event steal = ev(event_kind::steal, 5, 1, 17, 0, 0);
  CHECK(breakpoint::parse("event 4").hit(steal, 4, 1));
  CHECK(!breakpoint::parse("event 4").hit(steal, 5, 1));
  CHECK(breakpoint::parse("actor 17").hit(steal, 1, std::nullopt));
  CHECK(!breakpoint::parse("actor 18").hit(steal, 1, std::nullopt));
  CHECK(breakpoint::parse("worker 1").hit(steal, 1, std::nullopt));
  CHECK(!breakpoint::parse("worker 0").hit(steal, 1, std::nullopt));  // the victim is not the lane
  CHECK(breakpoint::parse("steal").hit(steal, 1, std::nullopt));
  CHECK(!breakpoint::parse("park").hit(steal, 1, std::nullopt));
  // a donation concerns two actors: both match
  const trace_event donate = ev(event_kind::donate, 5, 0, 3, 1, 4);
  CHECK(breakpoint::parse("actor 3").hit(donate, 1, std::nullopt));
  CHECK(breakpoint::parse("actor 4").hit(donate, 1, std::nullopt));
}

TEST_CASE("durations parse with and without units and print with the unit that fits") {
  CHECK(parse_time_ns("42") == 42);
  CHECK(parse_time_ns("0.5us") == 500);
  CHECK(parse_time_ns("1.000000001s") == 1000000001);
  CHECK(format_duration(950) == "950 ns");
  CHECK(format_duration(12500) == "12.500 us");
  CHECK(format_duration(1234567) == "1.234567 ms");
  CHECK(format_duration(2000000000) == "2.000000000 s");
}

TEST_SUITE_END();
