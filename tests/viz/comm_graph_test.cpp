// The communication graph (Boost.Graph): vertices, edges, strongly connected components, groups, GraphViz of the top edges.
#include <doctest/doctest.h>

#include <sstream>

#include "hand_built_traces.hpp"
#include "traces/trace_reader.hpp"
#include "viz/run_profile.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;
using twinsched::test::temp_file;

TEST_CASE("pi's graph: the master and its workers form one cycle, the start stands alone" * doctest::timeout(30)) {
  temp_file f("pi-graph");
  test::pi_trace(f.path());
  traces::trace_reader r(f.path());
  const viz::run_profile p = viz::profile_trace(r);
  const viz::comm_summary& g = p.graph;
  CHECK(g.actors == 6);  // the start and actors 1..5
  CHECK(g.edges == 9);   // start -> 1, 1 -> 2..5, 2..5 -> 1
  CHECK(g.messages == 9);
  CHECK(g.components == 2);
  CHECK(g.cyclic_components == 1);
  CHECK(g.largest_component == 5);
  REQUIRE(g.groups.size() == 1);
  CHECK(g.groups.at(1) == 4);
  REQUIRE(!g.top_edges.empty());
  CHECK(g.top_edges.front().messages == 1);
}

TEST_CASE("a chain has no cycle: every actor is its own component" * doctest::timeout(30)) {
  temp_file f("chain-graph");
  test::chain_trace(f.path(), 10, 100);
  traces::trace_reader r(f.path());
  const viz::comm_summary g = viz::profile_trace(r).graph;
  CHECK(g.actors == 11);
  CHECK(g.components == 11);
  CHECK(g.cyclic_components == 0);
}

TEST_CASE("the GraphViz file holds only the busiest edges asked for" * doctest::timeout(30)) {
  temp_file f("dot");
  test::trace_builder b(1);
  b.start_send(0, 1, 1);
  // actor 1 sends 3 messages to actor 2, 2 to actor 3 and 1 to actor 4
  b.handle(0, 1, 10, 1, 1, {{1, 2, 2}, {2, 2, 3}, {3, 2, 4}, {4, 3, 5}, {5, 3, 6}, {6, 4, 7}});
  std::uint64_t t = 20;
  for (std::uint64_t m = 2; m <= 7; ++m, t += 5) b.handle(0, t, 2, m <= 4 ? 2 : m <= 6 ? 3 : 4, m);
  b.write(f.path(), 60);
  traces::trace_reader r(f.path());
  const viz::run_profile p = viz::profile_trace(r);
  std::ostringstream dot;
  viz::write_dot(p.comm, dot, 2);
  const std::string s = dot.str();
  CHECK(s.find("digraph") != std::string::npos);
  std::size_t arrows = 0;
  for (std::size_t i = s.find("->"); i != std::string::npos; i = s.find("->", i + 2)) ++arrows;
  CHECK(arrows == 2);
  CHECK(s.find("label=\"3\"") != std::string::npos);
  CHECK(s.find("label=\"2\"") != std::string::npos);
  CHECK(s.find("actor 4") == std::string::npos);  // its only edge is not among the top two
}
