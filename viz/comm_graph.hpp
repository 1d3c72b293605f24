// The communication graph: actors as vertices, message counts as edge weights (Boost.Graph), and its GraphViz form.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <map>
#include <unordered_map>
#include <vector>

#include "models/trace_event.hpp"

namespace twinsched::viz {

/// Actor 0 stands for the workload's start (messages sent before any worker ran).
inline constexpr std::uint32_t start_vertex = 0;

struct comm_edge {
  std::uint32_t from = 0, to = 0;
  std::uint64_t messages = 0;
};

struct comm_summary {
  std::size_t actors = 0, edges = 0;  ///< vertices (the start included) and distinct sender -> receiver pairs
  std::uint64_t messages = 0;
  std::size_t components = 0;         ///< strongly connected components
  std::size_t cyclic_components = 0;  ///< of them, those with more than one actor (messages go round)
  std::size_t largest_component = 0;  ///< actors in the largest
  std::vector<comm_edge> top_edges;   ///< busiest first
  /// Groups of equal actors (models/actor.hpp's group, from the footer): group -> members.
  std::map<std::uint32_t, std::size_t> groups;
};

/// Counts sends per (sender actor, receiver actor). The sender is the actor whose turn was
/// open on the sending worker; sends outside any turn come from start_vertex.
class comm_counter {
 public:
  void add(const trace_event& e);
  const std::unordered_map<std::uint64_t, std::uint64_t>& counts() const { return counts_; }
  std::vector<comm_edge> edges() const;  ///< busiest first, ties by (from, to)

 private:
  std::unordered_map<std::uint64_t, std::uint64_t> counts_;  // from << 32 | to
  std::unordered_map<std::uint16_t, std::uint32_t> running_; // lane -> actor in its turn (0 none)
};

/// Builds the Boost graph of `c` and measures it; `groups`: actor -> group (0: none).
comm_summary summarize(const comm_counter& c, const std::unordered_map<std::uint32_t, std::uint32_t>& groups,
                       std::size_t top);

/// GraphViz of the `top` busiest edges and the actors they touch (boost::write_graphviz):
/// a 100k-actor graph stays readable. Pen width grows with the message count.
void write_dot(const comm_counter& c, std::ostream& out, std::size_t top);

}  // namespace twinsched::viz
