// The step session and trace info's text as a library: commands from a stream over a small hand-built trace file.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "traces/format.hpp"
#include "traces/step_session.hpp"
#include "traces/trace_info.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_stats.hpp"
#include "traces/trace_writer.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;

namespace {

using test::ev;

/// Worker 0 runs actor 5, steals actor 6 from worker 1, runs it, idles and parks; worker 1 runs actor 6.
void write_trace(const std::string& path) {
  trace_writer w(path, test::synthetic_header());
  w.write_events(0, std::vector<trace_event>{ev(event_kind::worker_start, 1000, 0),
                                             ev(event_kind::run_begin, 1100, 0, 5, 0, ~0u),
                                             ev(event_kind::run_end, 1300, 0, 5, 0, 1),
                                             ev(event_kind::steal, 1400, 0, 6, 0, 1),
                                             ev(event_kind::run_begin, 1500, 0, 6, 0, 1),
                                             ev(event_kind::run_end, 1600, 0, 6, 0, 2),
                                             ev(event_kind::idle, 1700, 0),
                                             ev(event_kind::park, 1800, 0),
                                             ev(event_kind::unpark, 2800, 0),
                                             ev(event_kind::worker_stop, 3000, 0)});
  w.write_events(1, std::vector<trace_event>{ev(event_kind::worker_start, 1000, 1),
                                             ev(event_kind::run_begin, 1050, 1, 6, 0, ~0u),
                                             ev(event_kind::run_end, 1250, 1, 6, 0, 1),
                                             ev(event_kind::worker_stop, 3000, 1)});
  w.finish(test::synthetic_footer());
}

std::string session(const trace_reader& r, const std::string& commands, step_options o = {}) {
  std::istringstream in(commands);
  std::ostringstream out;
  o.echo = true;
  CHECK(run_step_session(r, in, out, o) == 0);
  return out.str();
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("a scripted session: next, a kind breakpoint, continue, the workers at the stop") {
  test::temp_file f("step-session");
  write_trace(f.path());
  trace_reader r(f.path());
  const std::string out = session(r, "next 2\nbreak kind steal\ncontinue\nworkers\nnext 4\nworkers\nquit\n");
  CHECK(has(out, "(step) next 2\n#1         0.000000 ms  w0      worker_start\n#2  "));
  CHECK(has(out, "breakpoint 1: kind steal\n"));
  CHECK(has(out, "breakpoint 1 (kind steal), after 5 events:\n#7         0.000400 ms  w0      steal"));
  CHECK(has(out, " actor 6  from w1\n"));
  CHECK(has(out, "  w0    looking for work (since 0.000300 ms)   turns 1, messages 0, steals 1, parks 0\n"));
  CHECK(has(out, "  w1    looking for work (since 0.000250 ms)   turns 1, messages 0, steals 0, parks 0\n"));
  CHECK(has(out, "  w0    parked (since 0.000800 ms, idle since 0.000700 ms)   turns 2, messages 0, steals 1, "
                 "parks 1\n"));
  CHECK(has(out, "(step) quit\n"));
}

TEST_CASE("batch mode stops at the until time and prints the state, and an unknown command is an error line") {
  test::temp_file f("step-session-batch");
  write_trace(f.path());
  trace_reader r(f.path());
  step_options o;
  o.interactive = false;
  o.until_ns = 1800;
  const std::string batch = session(r, "", o);
  CHECK(has(batch, "until 0.001800 ms, after 12 events:\n#12        0.001800 ms  w0      unpark"));
  CHECK(has(batch, "  w0    idle (since 0.000700 ms, unparked at 0.001800 ms)"));
  CHECK(has(batch, "events applied: 12 ("));
  const std::string bad = session(r, "frobnicate\nnext 0\n");
  CHECK(has(bad, "error: unknown command 'frobnicate' (type `help`)\n"));
  CHECK(has(bad, "error: `next` takes a positive count: next 10\n"));
}

TEST_CASE("trace info text: the per-worker time shares from the workers states, and --quick without them") {
  test::temp_file f("trace-info");
  write_trace(f.path());
  trace_reader r(f.path());
  const trace_stats st = compute_stats(r);
  std::ostringstream full, quick;
  write_info_text(full, r, "x.tst", &st);
  write_info_text(quick, r, "x.tst", nullptr);
  // worker 0: span 2000 ns, running 300 (15%), idle 1300 (65%: its park included), parked 1000 (50%)
  CHECK(has(full.str(), "       0     0.000002      15.0    65.0     50.0           2           3\n"));
  CHECK(has(full.str(), "duration      0.000002 s (first to last event)\n"));
  CHECK_FALSE(has(quick.str(), "duration"));
  CHECK_FALSE(has(quick.str(), "running%"));
  const auto j = info_json(r, "x.tst", &st);
  CHECK(j["workers"][0]["parked_pct"] == doctest::Approx(50.0));
  CHECK(j["verified"] == true);
  CHECK(info_json(r, "x.tst", nullptr)["verified"] == false);
  CHECK_FALSE(info_json(r, "x.tst", nullptr).contains("workers"));
}
