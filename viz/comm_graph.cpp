// The communication graph in Boost.Graph: strongly connected components, top edges, GraphViz output.
#include "comm_graph.hpp"

// GCC 12 warns about the boost::optional inside Boost.Graph's edge iterator, which
// write_graphviz walks (a false positive of -Wmaybe-uninitialized in Boost 1.74 headers).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/graphviz.hpp>
#include <boost/graph/strong_components.hpp>
#include <cmath>
#include <ostream>
#include <string>

namespace twinsched::viz {

void comm_counter::add(const trace_event& e) {
  switch (e.kind) {
    case event_kind::run_begin:
      running_[e.worker] = e.actor;
      break;
    case event_kind::run_end:
      running_[e.worker] = 0;
      break;
    case event_kind::send: {
      auto it = running_.find(e.worker);
      const std::uint32_t from = it == running_.end() ? start_vertex : it->second;
      ++counts_[std::uint64_t(from) << 32 | e.actor];
      break;
    }
    default:
      break;
  }
}

std::vector<comm_edge> comm_counter::edges() const {
  std::vector<comm_edge> v;
  v.reserve(counts_.size());
  for (auto [k, n] : counts_) v.push_back({std::uint32_t(k >> 32), std::uint32_t(k), n});
  std::sort(v.begin(), v.end(), [](const comm_edge& a, const comm_edge& b) {
    return a.messages != b.messages ? a.messages > b.messages : a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  return v;
}

namespace {

using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                    boost::property<boost::vertex_name_t, std::uint32_t>,
                                    boost::property<boost::edge_weight_t, std::uint64_t>>;

/// The graph of `edges`; vertex ids are dense, each named by its actor.
graph build(const std::vector<comm_edge>& edges) {
  graph g;
  std::unordered_map<std::uint32_t, graph::vertex_descriptor> index;
  auto vertex_of = [&](std::uint32_t actor) {
    auto [it, fresh] = index.try_emplace(actor, 0);
    if (fresh) it->second = boost::add_vertex(actor, g);
    return it->second;
  };
  for (const auto& e : edges) boost::add_edge(vertex_of(e.from), vertex_of(e.to), e.messages, g);
  return g;
}

}  // namespace

comm_summary summarize(const comm_counter& c, const std::unordered_map<std::uint32_t, std::uint32_t>& groups,
                       std::size_t top) {
  comm_summary s;
  const std::vector<comm_edge> edges = c.edges();
  const graph g = build(edges);
  s.actors = boost::num_vertices(g);
  s.edges = edges.size();
  for (const auto& e : edges) s.messages += e.messages;
  std::vector<std::size_t> component(s.actors);
  s.components = s.actors ? boost::strong_components(
                                 g, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, g)))
                           : 0;
  std::vector<std::size_t> size(s.components);
  for (std::size_t comp : component) ++size[comp];
  for (std::size_t n : size) {
    s.cyclic_components += n > 1;
    s.largest_component = std::max(s.largest_component, n);
  }
  s.top_edges.assign(edges.begin(), edges.begin() + std::ptrdiff_t(std::min(top, edges.size())));
  for (auto [actor, group] : groups)
    if (group != 0) ++s.groups[group];
  return s;
}

void write_dot(const comm_counter& c, std::ostream& out, std::size_t top) {
  std::vector<comm_edge> edges = c.edges();
  if (edges.size() > top) edges.resize(top);
  const graph g = build(edges);
  const std::uint64_t most = edges.empty() ? 1 : edges.front().messages;
  auto names = boost::get(boost::vertex_name, g);
  auto weights = boost::get(boost::edge_weight, g);
  boost::write_graphviz(
      out, g,
      [&](std::ostream& o, graph::vertex_descriptor v) {
        const std::uint32_t a = names[v];
        o << "[label=\"" << (a == start_vertex ? std::string("start") : "actor " + std::to_string(a)) << "\"]";
      },
      [&](std::ostream& o, graph::edge_descriptor e) {
        const std::uint64_t n = weights[e];
        o << "[label=\"" << n << "\",penwidth=" << 1 + std::lround(5.0 * double(n) / double(most)) << "]";
      },
      [&](std::ostream& o) { o << "rankdir=LR;\nnode [shape=box,fontname=\"sans-serif\"];\n"; });
}

}  // namespace twinsched::viz
