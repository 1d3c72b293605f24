// The trace format: every event kind and field survives a file round trip; header, footer, cursors, checksums,
// histogram.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "scenarios/scenario_loader.hpp"
#include "traces/checksum.hpp"
#include "traces/diff.hpp"
#include "traces/histogram.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/merged_cursor.hpp"
#include "traces/scenario_text.hpp"
#include "traces/trace_reader.hpp"
#include "traces_test_support.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::traces;
using twinsched::test::temp_file;

namespace {

bool same(const trace_event& a, const trace_event& b) {
  return a.time_ns == b.time_ns && a.message == b.message && a.actor == b.actor && a.other == b.other &&
         a.worker == b.worker && a.kind == b.kind;
}

std::vector<trace_event> read_lane(const trace_reader& r, std::uint16_t lane) {
  std::vector<trace_event> v;
  lane_cursor c(r, lane);
  while (const trace_event* e = c.next()) v.push_back(*e);
  return v;
}

std::vector<std::uint8_t> footer_bytes(const trace_footer& f) {
  byte_sink sink;
  encode_footer(f, sink);
  return {sink.bytes().begin(), sink.bytes().end()};
}

/// The footer that the first `n` of `bytes` hold, checked to use them all.
trace_footer footer_from(const std::vector<std::uint8_t>& bytes, std::size_t n) {
  byte_source in(bytes.data(), n, 0, "footer", "footer");
  trace_footer f = decode_footer(in, format_version);
  CHECK(in.done());
  return f;
}

}  // namespace

TEST_CASE("crc32c gives the standard check value") {
  CHECK(crc32c("123456789", 9) == 0xe3069283u);
  CHECK(crc32c("", 0) == 0u);
  const std::string s = "a longer string than eight bytes, to exercise the sliced loop";
  CHECK(crc32c(s.data() + 20, s.size() - 20, crc32c(s.data(), 20)) == crc32c(s.data(), s.size()));
}

TEST_CASE("every event kind and every field survives a round trip through a file") {
  temp_file f("roundtrip");
  auto written = test::write_synthetic(f.path(), 3);
  trace_reader r(f.path());
  const std::uint16_t ids[] = {0, 1, outside_lane};
  std::array<std::uint64_t, 16> kinds{};
  for (int l = 0; l < 3; ++l) {
    auto back = read_lane(r, ids[l]);
    REQUIRE(back.size() == written[std::size_t(l)].size());
    for (std::size_t i = 0; i < back.size(); ++i) {
      INFO("lane " << ids[l] << " event " << i << ": " << describe(written[std::size_t(l)][i]));
      CHECK(same(back[i], written[std::size_t(l)][i]));
      ++kinds[unsigned(back[i].kind)];
    }
  }
  for (unsigned k = 0; k < kind_count; ++k) CHECK(kinds[k] == 27);  // 3 lanes x 3 blocks x 3 rounds
  CHECK(r.events() == 3 * 3 * 3 * kind_count);
  CHECK(r.blocks().size() == 9);
}

TEST_CASE("the header and the footer come back as written") {
  temp_file f("header");
  test::write_synthetic(f.path(), 1);
  trace_reader r(f.path());
  const trace_header& h = r.header();
  const trace_header w = test::synthetic_header();
  CHECK(h.version == format_version);
  CHECK(h.scenario == w.scenario);
  CHECK(h.scenario_text == w.scenario_text);
  CHECK(h.scenario_hash == w.scenario_hash);
  CHECK(h.workload_hash == w.workload_hash);
  CHECK(h.seed == w.seed);
  CHECK(h.backend == w.backend);
  CHECK(h.machine == w.machine);
  CHECK(h.workers == w.workers);
  CHECK(h.lanes == w.lanes);
  CHECK(h.policy == w.policy);
  CHECK(h.idle == w.idle);
  CHECK(h.clock == w.clock);
  CHECK(h.level == w.level);
  CHECK(h.created_unix_s == w.created_unix_s);
  CHECK(h.producer == w.producer);

  const trace_footer& ft = r.footer();
  const trace_footer e = test::synthetic_footer();
  CHECK(ft.messages == e.messages);
  CHECK(ft.wall_ns == e.wall_ns);
  CHECK(ft.checksum == e.checksum);
  CHECK(ft.detail == e.detail);
  CHECK(ft.errors == e.errors);
  REQUIRE(ft.per_worker.size() == 2);
  CHECK(ft.per_worker[1].donations == 4);
  CHECK(ft.per_worker[1].migrations == 5);
  CHECK(ft.per_worker[1].idle_ns == 500);
  REQUIRE(ft.actors.size() == 3);
  CHECK(ft.actors[2].id == 70000);
  CHECK(ft.actors[1].digest == 0x2222);
  CHECK(ft.has_actors);
  CHECK(ft.clock_note == e.clock_note);
  // lane totals are the writer's own
  REQUIRE(ft.lanes.size() == 3);
  CHECK(ft.lanes[0].lane == 0);
  CHECK(ft.lanes[2].lane == outside_lane);
  CHECK(ft.lanes[0].events == 3 * kind_count);
  CHECK(ft.events() == r.events());
  for (unsigned k = 0; k < kind_count; ++k) CHECK(ft.count(k) == 9);
}

TEST_CASE("the merged cursor returns every event once, in time order") {
  temp_file f("merged");
  auto written = test::write_synthetic(f.path(), 2);
  trace_reader r(f.path());
  merged_cursor c(r);
  std::uint64_t n = 0, last = 0;
  while (const trace_event* e = c.next()) {
    CHECK(e->time_ns >= last);
    last = e->time_ns;
    ++n;
  }
  CHECK(n == r.events());
  CHECK(c.position() == n);
}

TEST_CASE("two identical simulated traces have no divergence, and one changed event is found with its context") {
  temp_file a("sim-a"), b("sim-b");
  test::write_synthetic(a.path(), 2);
  test::write_synthetic(b.path(), 2);
  {
    trace_reader ra(a.path()), rb(b.path());
    diff_report d = diff_traces(ra, rb, {});
    REQUIRE(d.first.checked);
    CHECK(d.first.identical);
    CHECK(d.logical.state == logical_check::verdict::equal);
    CHECK(d.exit_code() == 0);
  }
  // rewrite B with one event of lane 1 changed
  {
    traces::trace_writer w(b.path(), test::synthetic_header());
    const std::uint16_t ids[] = {0, 1, outside_lane};
    std::uint64_t t[3] = {100, 50, 0};
    for (int blk = 0; blk < 2; ++blk)
      for (int l = 0; l < 3; ++l) {
        auto ev = test::every_kind(ids[l], t[l]);
        t[l] = ev.back().time_ns + 10;
        if (blk == 1 && l == 1) ev[5].actor += 1;
        w.write_events(ids[l], ev);
      }
    w.finish(test::synthetic_footer());
  }
  trace_reader ra(a.path()), rb(b.path());
  diff_options o;
  o.context = 2;
  diff_report d = diff_traces(ra, rb, o);
  REQUIRE(d.first.checked);
  REQUIRE_FALSE(d.first.identical);
  REQUIRE(!d.first.after_a.empty());
  REQUIRE(!d.first.after_b.empty());
  CHECK(d.first.after_a[0].worker == 1);
  CHECK(d.first.after_b[0].actor == d.first.after_a[0].actor + 1);
  CHECK(d.first.before.size() == 2);
  CHECK(d.first.after_a.size() == 2);
}

TEST_CASE("real-backend traces are compared event by event only when asked") {
  temp_file a("real-a"), b("real-b");
  test::write_synthetic(a.path(), 1, "threads");
  test::write_synthetic(b.path(), 1, "threads");
  trace_reader ra(a.path()), rb(b.path());
  CHECK_FALSE(diff_traces(ra, rb, {}).first.checked);
  diff_options o;
  o.events = true;
  CHECK(diff_traces(ra, rb, o).first.identical);
}

TEST_CASE("the canonical scenario text loads back as the same scenario") {
  scenario s = load_default_scenario();
  s.sched.policy = "shared-queue";
  s.sched.workers = 3;
  s.sched.idle.strategy = "park";
  s.sched.idle.min_park_ns = 5000;
  s.workload_params["hops"] = std::int64_t(77);
  s.name = "a \"quoted\" name";
  const std::string text = canonical_scenario_text(s);
  scenario back = load_scenario_text(text, "<trace header>");
  CHECK(back.name == s.name);
  CHECK(back.seed == s.seed);
  CHECK(back.workload == s.workload);
  CHECK(std::get<std::int64_t>(back.workload_params.at("hops")) == 77);
  CHECK(back.sched.policy == "shared-queue");
  CHECK(back.sched.workers == 3);
  CHECK(back.sched.idle.strategy == "park");
  CHECK(back.sched.idle.min_park_ns == 5000);
  CHECK(back.sched.burst == s.sched.burst);
  CHECK(canonical_scenario_text(back) == text);  // a fixed point
  // the workload hash ignores the scheduler, the scenario hash does not
  scenario other = s;
  other.sched.policy = "stealing";
  CHECK(header_for(s, "threads", "m", 3, trace_level::full).workload_hash ==
        header_for(other, "threads", "m", 3, trace_level::full).workload_hash);
  CHECK(header_for(s, "threads", "m", 3, trace_level::full).scenario_hash !=
        header_for(other, "threads", "m", 3, trace_level::full).scenario_hash);
}

TEST_CASE("histogram quantiles are within 1/32 of the exact value") {
  histogram h;
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 1; i <= 100000; ++i) {
    std::uint64_t x = (i * 2654435761u) % 10'000'000;
    h.add(x);
    v.push_back(x);
  }
  std::sort(v.begin(), v.end());
  for (double q : {0.5, 0.9, 0.99}) {
    const double exact = double(v[std::size_t(q * double(v.size())) - 1]);
    const double got = double(h.quantile(q));
    CHECK(got >= exact);
    CHECK(got <= exact * (1 + 1.0 / 32) + 1);
  }
  CHECK(h.count() == 100000);
  CHECK(h.max() == v.back());
}


/// The bytes of the footer's last section: latency and CPU.
std::size_t latency_section_bytes(const trace_footer& f) {
  byte_sink v;
  v.varint(f.per_worker.size());
  for (const auto& w : f.per_worker) v.varint(w.parked_ns), v.varint(w.cpu_ns);
  for (const latency_summary* l : {&f.request_latency, &f.scheduling_delay})
    for (std::uint64_t x : {l->count, std::uint64_t(l->mean_ns + 0.5), l->p50_ns, l->p99_ns, l->p999_ns, l->max_ns}) v.varint(x);
  v.varint(f.timers);
  return v.bytes().size();
}

TEST_CASE("a run's latency, CPU and timers come back from the footer, and a footer without them says so") {
  trace_footer f = test::synthetic_footer();
  REQUIRE(!f.per_worker.empty());
  f.per_worker[0].cpu_ns = 123'456'789;
  f.per_worker[0].parked_ns = 42;
  f.request_latency = {1000, 25'000.0, 20'000, 90'000, 150'000, 400'000};
  f.scheduling_delay = {64, 3'000.0, 1'000, 9'000, 9'500, 10'000};
  f.timers = 1000;
  const std::vector<std::uint8_t> bytes = footer_bytes(f);
  const trace_footer back = footer_from(bytes, bytes.size());
  CHECK(back.latency_recorded);
  CHECK(back.per_worker[0].cpu_ns == 123'456'789);
  CHECK(back.per_worker[0].parked_ns == 42);
  CHECK(back.request_latency.p99_ns == 90'000);
  CHECK(back.request_latency.p999_ns == 150'000);
  CHECK(back.request_latency.mean_ns == 25'000.0);
  CHECK(back.scheduling_delay.count == 64);
  CHECK(back.timers == 1000);
  const trace_footer before = footer_from(bytes, bytes.size() - latency_section_bytes(f));
  CHECK_FALSE(before.latency_recorded);
  CHECK(before.off_cpu_recorded);
  CHECK(before.per_worker[0].cpu_ns == 0);
  CHECK(before.request_latency.count == 0);
}

TEST_CASE("a real run's time off a CPU per lane comes back from the footer, and a footer without it says so") {
  trace_footer f = test::synthetic_footer();
  lane_summary w0, w1, out;
  w0.lane = 0, w0.events = 10, w0.first_ns = 25'000'000, w0.run_delay_ns = 1'500'000, w0.off_cpu_ns = 1'400'000;
  w1.lane = 1, w1.events = 10, w1.first_ns = 25'100'000, w1.run_delay_ns = -1, w1.off_cpu_ns = 70;  // delay unknown
  out.lane = outside_lane, out.events = 4, out.first_ns = 24'990'000;
  f.lanes = {w0, w1, out};
  const std::vector<std::uint8_t> bytes = footer_bytes(f);
  const trace_footer back = footer_from(bytes, bytes.size());
  CHECK(back.off_cpu_recorded);
  REQUIRE(back.lanes.size() == 3);
  CHECK(back.lanes[0].run_delay_ns == 1'500'000);
  CHECK(back.lanes[0].off_cpu_ns == 1'400'000);
  CHECK(back.lanes[1].run_delay_ns == -1);
  CHECK(back.lanes[1].off_cpu_ns == 70);
  CHECK(back.lanes[2].run_delay_ns == -1);
  // the run began with its first event, whichever lane has it: the outside lane's here
  CHECK(run_start_ns(back) == 24'990'000);
  CHECK(since_run_start(25'000'000, run_start_ns(back)) == 10'000);

  // a footer written before the section existed ends after the clock note: the same bytes
  // less the section (the lane count, then two varints per lane) and the latency section after it
  std::size_t section = latency_section_bytes(f) + 1;  // the lane count
  for (const auto& l : f.lanes) {
    byte_sink v;
    v.varint(l.run_delay_ns < 0 ? 0 : std::uint64_t(l.run_delay_ns) + 1);
    v.varint(l.off_cpu_ns);
    section += v.bytes().size();
  }
  const trace_footer before = footer_from(bytes, bytes.size() - section);
  CHECK_FALSE(before.off_cpu_recorded);
  CHECK(before.lanes[0].run_delay_ns == -1);
  CHECK(before.lanes[0].off_cpu_ns == 0);
  CHECK(before.clock_note == f.clock_note);
}

TEST_SUITE_END();
