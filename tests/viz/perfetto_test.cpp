// The Perfetto export (viz/): well-formed JSON, slices that nest and never overlap per worker track, paired flows, windows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vector>

#include "runtime/run_threads.hpp"
#include "traces/merged_cursor.hpp"
#include "viz/perfetto_export.hpp"
#include "traces/trace_reader.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using namespace twinsched::viz;
using twinsched::test::temp_file;

namespace {

struct slice {
  std::int64_t b, e;  // ns
  std::string name;
};

std::int64_t ns(const nlohmann::json& us) { return std::llround(us.get<double>() * 1000.0); }

/// Per track: sorted by start (longer first on ties), every slice either ends before the next
/// starts, or contains it entirely.
void check_nesting(const std::map<int, std::vector<slice>>& tracks) {
  for (auto [tid, v] : tracks) {
    std::sort(v.begin(), v.end(), [](const slice& x, const slice& y) { return x.b != y.b ? x.b < y.b : x.e > y.e; });
    std::vector<slice> stack;
    for (const auto& s : v) {
      CHECK(s.e >= s.b);
      while (!stack.empty() && stack.back().e <= s.b && !(stack.back().e == s.b && stack.back().b == s.b))
        stack.pop_back();
      if (!stack.empty()) {
        INFO("track " << tid << ": " << s.name << " [" << s.b << ", " << s.e << "] inside " << stack.back().name << " ["
                      << stack.back().b << ", " << stack.back().e << "]");
        CHECK(s.e <= stack.back().e);  // nested, never overlapping
      }
      stack.push_back(s);
    }
  }
}

nlohmann::json exported(const trace_reader& r, const perfetto_options& o, perfetto_summary* sum = nullptr) {
  std::ostringstream out;
  perfetto_summary s = export_perfetto(r, out, o);
  if (sum) *sum = s;
  return nlohmann::json::parse(out.str());  // throws if not well formed
}

}  // namespace

TEST_SUITE("concurrency") {
  TEST_CASE("the Perfetto export of a real run is well formed and its slices nest on each worker track" *
            doctest::timeout(60)) {
    temp_file f("perfetto");
    scenario s;
    s.name = "perfetto";
    s.workload = "forward";
    s.workload_params = {{"actors", std::int64_t(50)}, {"tokens", std::int64_t(10)}, {"hops", std::int64_t(300)}};
    s.sched.idle.strategy = "park";
    REQUIRE(run_on_threads(s, trace_request{f.path(), trace_level::full}).ok());
    trace_reader r(f.path());
    perfetto_summary sum;
    nlohmann::json j = exported(r, {}, &sum);
    REQUIRE(j.contains("traceEvents"));
    CHECK(j["displayTimeUnit"] == "ns");
    CHECK(j["otherData"]["flows_sampled"] == false);
    std::map<int, std::vector<slice>> tracks;
    std::map<std::string, int> names;
    std::set<std::uint64_t> starts, finishes;
    std::size_t counters = 0;
    for (const auto& e : j["traceEvents"]) {
      const std::string ph = e["ph"];
      if (ph == "X") {
        tracks[e["tid"].get<int>()].push_back({ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]});
        ++names[e["cat"]];
      } else if (ph == "s") {
        starts.insert(e["id"].get<std::uint64_t>());
      } else if (ph == "f") {
        CHECK(e["bp"] == "e");
        finishes.insert(e["id"].get<std::uint64_t>());
      } else if (ph == "C") {
        ++counters;
      } else if (ph == "M") {
        const std::string name = e["name"];
        CHECK((name == "process_name" || name == "thread_name" || name == "thread_sort_index"));
      }
    }
    CHECK(names["turn"] == r.footer().count(unsigned(event_kind::run_begin)));
    CHECK(names["message"] == r.footer().count(unsigned(event_kind::message_begin)));
    CHECK(tracks.count(1));
    CHECK(tracks.count(2));
    check_nesting(tracks);
    // every arrow that ends was started; with no sampling, every message has one
    for (auto id : finishes) CHECK(starts.count(id));
    CHECK(finishes.size() == r.footer().messages);
    CHECK(sum.flows == finishes.size());
    CHECK(counters > 0);
  }

  TEST_CASE("a windowed export keeps only that window, still nested, and says when flows are sampled" *
            doctest::timeout(60)) {
    temp_file f("perfetto-window");
    scenario s;
    s.name = "perfetto-window";
    s.workload = "forward";
    s.workload_params = {{"actors", std::int64_t(100)}, {"tokens", std::int64_t(20)}, {"hops", std::int64_t(2000)}};
    REQUIRE(run_on_threads(s, trace_request{f.path(), trace_level::full}).ok());
    trace_reader r(f.path());
    // the window: the middle half of the sends (a loaded machine can leave long gaps in time),
    // in the tools' time base: since the run began
    std::vector<std::uint64_t> sends;
    merged_cursor c(r);
    const std::uint64_t start = run_start_ns(r.footer());
    while (const trace_event* e = c.next())
      if (e->kind == event_kind::send) sends.push_back(since_run_start(e->time_ns, start));
    REQUIRE(sends.size() == 40020);
    perfetto_options o;
    o.from_ns = sends[sends.size() / 4];
    o.to_ns = sends[sends.size() / 2];
    o.max_flows = 50;
    perfetto_summary sum;
    nlohmann::json j = exported(r, o, &sum);
    CHECK(sum.sampled());
    CHECK(j["otherData"]["flows_sampled"] == true);
    CHECK(j["otherData"]["flow_sampling"].get<std::string>().find("about 1 in") == 0);
    std::map<int, std::vector<slice>> tracks;
    for (const auto& e : j["traceEvents"]) {
      if (e["ph"] == "M") continue;
      const std::int64_t ts = ns(e["ts"]);
      CHECK(ts >= std::int64_t(o.from_ns));
      CHECK(ts <= std::int64_t(o.to_ns));
      if (e["ph"] == "X") {
        CHECK(ts + ns(e["dur"]) <= std::int64_t(o.to_ns));
        tracks[e["tid"].get<int>()].push_back({ts, ts + ns(e["dur"]), e["name"]});
      }
    }
    CHECK(!tracks.empty());
    check_nesting(tracks);
    CHECK(sum.flows <= 2 * o.max_flows);
  }

  TEST_CASE("a real run's export starts at 0: its times are since the run began, as every tool shows them" *
            doctest::timeout(60)) {
    temp_file f("perfetto-zero");
    scenario s;
    s.name = "perfetto-zero";
    s.workload = "forward";
    s.workload_params = {{"actors", std::int64_t(50)}, {"tokens", std::int64_t(5)}, {"hops", std::int64_t(100)}};
    REQUIRE(run_on_threads(s, trace_request{f.path(), trace_level::full}).ok());
    trace_reader r(f.path());
    const std::uint64_t start = run_start_ns(r.footer());
    CHECK(start > 0);  // a real run's clock starts when its recorder is set up, before the run
    std::uint64_t last = 0;
    for (const auto& l : r.footer().lanes) last = std::max(last, l.last_ns);
    const nlohmann::json j = exported(r, {});
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), end = 0;
    for (const auto& e : j["traceEvents"]) {
      if (e["ph"] == "M") continue;
      first = std::min(first, ns(e["ts"]));
      end = std::max(end, ns(e["ts"]) + (e.contains("dur") ? ns(e["dur"]) : 0));
    }
    CHECK(first == 0);  // the workload's start: the run's first event
    CHECK(end == std::int64_t(last - start));
    CHECK(j["otherData"]["window_ns"][1] == last - start);
  }

}  // TEST_SUITE

TEST_CASE("the Perfetto export of a synthetic trace with every event kind is well formed") {
  temp_file f("perfetto-synthetic");
  test::write_synthetic(f.path(), 2);
  trace_reader r(f.path());
  nlohmann::json j = exported(r, {});
  CHECK(j["traceEvents"].is_array());
  CHECK(j["otherData"]["scenario"] == "synthetic");
}

TEST_SUITE_END();
