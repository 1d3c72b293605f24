// The causality DAG on hand-built traces whose answers are known: a chain, independent actors, pi's master and workers.
#include <doctest/doctest.h>

#include "hand_built_traces.hpp"
#include "traces/trace_reader.hpp"
#include "viz/run_profile.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
using twinsched::test::temp_file;

namespace {
viz::causality_result analyzed(const std::string& path, std::size_t max_dag_nodes = 1000000) {
  traces::trace_reader r(path);
  viz::profile_options o;
  o.max_dag_nodes = max_dag_nodes;
  return viz::profile_trace(r, o).causality;
}
}  // namespace

TEST_CASE("a chain of N messages has span N turns and parallelism 1" * doctest::timeout(30)) {
  temp_file f("chain");
  test::chain_trace(f.path(), 50, 1000);
  const auto c = analyzed(f.path());
  REQUIRE(c.available);
  CHECK(c.handlings == 50);
  CHECK(c.work_ns == 50000);
  CHECK(c.span_ns == 50000);
  CHECK(c.parallelism() == doctest::Approx(1.0));
  CHECK(c.bound_ns(16) == 50000);  // more cores do not help a chain
  REQUIRE(c.path_listed);
  CHECK(c.dag_span_ns == c.span_ns);  // Boost.Graph's longest path agrees with the streaming one
  CHECK(c.path.size() == 50);
  CHECK(c.path.front().actor == 1);
  CHECK(c.path.back().actor == 50);
}

TEST_CASE("N independent actors have parallelism N" * doctest::timeout(30)) {
  temp_file f("independent");
  test::independent_trace(f.path(), 24, 500);
  const auto c = analyzed(f.path());
  REQUIRE(c.available);
  CHECK(c.work_ns == 24 * 500);
  CHECK(c.span_ns == 500);
  CHECK(c.parallelism() == doctest::Approx(24.0));
  CHECK(c.bound_ns(4) == 24 * 500 / 4);  // the cores limit, not the graph
  CHECK(c.bound_ns(48) == 500);
  CHECK(c.from_start == 24);
  CHECK(c.dag_span_ns == 500);
  CHECK(c.path.size() == 1);
}

TEST_CASE("pi's master and workers: the replies queue at the master, which bounds the span" * doctest::timeout(30)) {
  temp_file f("pi");
  test::pi_trace(f.path());
  const auto c = analyzed(f.path());
  REQUIRE(c.available);
  CHECK(c.work_ns == 10 + 4 * 100 + 4 * 2);
  CHECK(c.span_ns == 109);
  CHECK(c.parallelism() == doctest::Approx(418.0 / 109.0));
  CHECK(c.bound_ns(1) == 418);
  CHECK(c.bound_ns(2) == 209);
  CHECK(c.bound_ns(4) == 109);
  CHECK(c.busiest_actor == 2);  // the first worker: 100 ns (the master's handlings total 18)
  REQUIRE(c.path_listed);
  CHECK(c.dag_span_ns == 109);
  std::vector<std::uint32_t> actors;
  for (const auto& s : c.path) actors.push_back(s.actor);
  CHECK(actors == std::vector<std::uint32_t>{1, 2, 1, 1, 1, 1});
}

TEST_CASE("without room for the explicit DAG the numbers stay exact and the path is not listed" * doctest::timeout(30)) {
  temp_file f("pi-small");
  test::pi_trace(f.path());
  const auto c = analyzed(f.path(), 3);
  CHECK(c.span_ns == 109);
  CHECK(c.work_ns == 418);
  CHECK_FALSE(c.path_listed);
  CHECK(c.path.empty());
}

TEST_CASE("a decisions-level trace has no causality DAG, and says why" * doctest::timeout(30)) {
  temp_file f("decisions");
  test::trace_builder b(2);
  b.start_send(0, 1, 1);
  b.handle(0, 5, 10, 1, 1);
  b.write(f.path(), 20, trace_level::decisions);
  const auto c = analyzed(f.path());
  CHECK_FALSE(c.available);
  CHECK(c.why.find("full-level") != std::string::npos);
}

TEST_CASE("a handling stamped before its send (a worker ahead in its quantum) still waits for the send" *
          doctest::timeout(30)) {
  temp_file f("early");
  test::trace_builder b(2);
  b.start_send(0, 1, 1);
  b.handle(1, 0, 10, 1, 1, {{10, 2, 2}});  // actor 1 sends at 10, on worker 1
  b.handle(0, 10, 20, 2, 2);               // worker 0 begins it at 10: merged before the send (lane 0 first)
  b.write(f.path(), 30);
  const auto c = analyzed(f.path());
  CHECK(c.span_ns == 30);
  CHECK(c.dag_span_ns == 30);
  CHECK(c.reordered == 0);
  CHECK(c.path.size() == 2);
}

TEST_CASE("a real handling's time off a CPU is not work: a chain preempted in one handling keeps its span" *
          doctest::timeout(30)) {
  // Three handlings of 100 ns in a chain, each sending to the next 50 ns into it; the worker of
  // the second was preempted for 5 ms after its send (its end says so, and the recorder puts
  // that time just before the end). Counted as work, those 5 ms would be nearly all of the
  // work and the span; left out, the work is the 300 ns the chain ran, the span 200.
  temp_file f("preempted");
  test::trace_builder b(2);
  b.start_send(0, 1, 1);
  b.handle(0, 10, 100, 1, 1, {{50, 2, 2}});
  b.handle(1, 110, 5'000'100, 2, 2, {{50, 3, 3}}, 5'000'000);
  b.handle(0, 5'000'210, 100, 3, 3);
  b.write(f.path(), 5'000'400);
  traces::trace_reader r(f.path());
  const viz::run_profile p = viz::profile_trace(r);
  const auto& c = p.causality;
  REQUIRE(c.available);
  CHECK(c.handlings == 3);
  CHECK(c.work_ns == 300);
  CHECK(c.off_cpu_ns == 5'000'000);
  CHECK(c.span_ns == 200);  // 1 sends at 50, 2 at 50 + 50, 3 runs 100 from there
  CHECK(c.dag_span_ns == 200);
  CHECK(c.busiest_actor_ns == 100);
  // the hottest actors' turn time leaves it out too
  for (const auto& h : p.hottest) CHECK(h.turn_ns == 100);
}
