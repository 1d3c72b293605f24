// The causality DAG: earliest starts computed while streaming, and the explicit DAG in Boost.Graph when it fits.
#include "causality.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/dag_shortest_paths.hpp>
#include <functional>
#include <limits>
#include <unordered_map>

namespace twinsched::viz {

std::uint64_t causality_result::bound_ns(unsigned cores) const {
  if (cores == 0) cores = 1;
  return std::max((work_ns + cores - 1) / cores, span_ns);
}

namespace {

constexpr std::uint32_t no_node = ~0u;

struct in_flight {
  std::uint64_t earliest = 0;  ///< the receiver's handling may start no sooner (causal edge)
  std::uint32_t sender = no_node;
  std::uint64_t offset = 0;  ///< edge length: how far into the sender's handling it was sent
};

struct lane_state {
  bool open = false;
  std::uint64_t start = 0, begin_ns = 0;  ///< earliest start in the DAG; time in the trace
  std::uint32_t actor = 0, node = no_node;
  std::uint64_t message = 0;
};

struct actor_state {
  std::uint64_t end = 0;  ///< its last handling's earliest end
  std::uint32_t node = no_node;
  std::uint64_t ns = 0;  ///< its handlings' total
  std::uint64_t last_dur = 0;
  std::uint64_t message = 0;  ///< of its last handling
};

/// A handling whose begin came before its send in time order (a simulated worker runs up to a
/// quantum ahead of the others; a real trace's times are interpolated).
struct early_begin {
  std::uint16_t lane;
  std::uint32_t actor;
};

struct dag_node {
  std::uint64_t message, begin_ns, ns = 0;
  std::uint32_t actor;
};

struct dag_edge {
  std::uint32_t from, to;
  std::uint64_t length;
};

}  // namespace

struct causality_builder::state {
  std::size_t max_nodes;
  bool dag_on = true;
  std::unordered_map<std::uint64_t, in_flight> flying;
  std::unordered_map<std::uint64_t, early_begin> early;
  std::unordered_map<std::uint16_t, lane_state> lanes;
  std::unordered_map<std::uint32_t, actor_state> actors;
  std::vector<dag_node> nodes;
  std::vector<dag_edge> edges;
  causality_result r;
};

causality_builder::causality_builder(std::size_t max_dag_nodes) : s_(std::make_unique<state>()) {
  s_->max_nodes = max_dag_nodes;
  s_->dag_on = max_dag_nodes > 0;
}
causality_builder::~causality_builder() = default;

void causality_builder::add(const trace_event& e) {
  state& s = *s_;
  switch (e.kind) {
    case event_kind::send: {
      in_flight f;
      auto it = s.lanes.find(e.worker);
      if (it != s.lanes.end() && it->second.open) {
        const lane_state& l = it->second;
        f.offset = e.time_ns >= l.begin_ns ? e.time_ns - l.begin_ns : 0;
        f.earliest = l.start + f.offset;
        f.sender = l.node;
      } else {
        ++s.r.from_start;
      }
      if (auto ea = s.early.find(e.message); ea != s.early.end()) {  // its handling began already
        const early_begin eb = ea->second;
        s.early.erase(ea);
        std::uint32_t node = no_node;
        lane_state& l = s.lanes[eb.lane];
        actor_state& a = s.actors[eb.actor];
        if (l.open && l.message == e.message) {  // still handling it: it starts no sooner than the send allows
          l.start = std::max(l.start, f.earliest);
          node = l.node;
        } else if (a.message == e.message) {  // handled already, and the actor's last: move its end
          a.end = std::max(a.end, f.earliest + a.last_dur);
          s.r.span_ns = std::max(s.r.span_ns, a.end);
          node = a.node;
        } else {  // later handlings of the actor already built on it: the edge is lost
          ++s.r.reordered;
          break;
        }
        if (s.dag_on && node != no_node && f.sender != no_node) s.edges.push_back({f.sender, node, f.offset});
        break;
      }
      s.flying[e.message] = f;
      break;
    }
    case event_kind::message_begin: {
      lane_state& l = s.lanes[e.worker];
      actor_state& a = s.actors[e.actor];
      std::uint64_t start = a.end;
      in_flight f;
      if (auto it = s.flying.find(e.message); it != s.flying.end()) {
        f = it->second;
        s.flying.erase(it);
      } else {
        s.early[e.message] = {e.worker, e.actor};
      }
      start = std::max(start, f.earliest);
      l = {true, start, e.time_ns, e.actor, no_node, e.message};
      if (s.dag_on && s.nodes.size() >= s.max_nodes) {  // too large to list: keep the numbers only
        s.dag_on = false;
        s.nodes = {};
        s.edges = {};
      }
      if (s.dag_on) {
        l.node = std::uint32_t(s.nodes.size());
        s.nodes.push_back({e.message, e.time_ns, 0, e.actor});
        if (f.sender != no_node) s.edges.push_back({f.sender, l.node, f.offset});
        if (a.node != no_node) s.edges.push_back({a.node, l.node, a.last_dur});
      }
      break;
    }
    case event_kind::message_end: {
      auto it = s.lanes.find(e.worker);
      if (it == s.lanes.end() || !it->second.open) break;
      lane_state& l = it->second;
      const std::uint64_t wall = e.time_ns >= l.begin_ns ? e.time_ns - l.begin_ns : 0;
      // a real handling's end says how long its worker was off a CPU in it (format.hpp)
      const std::uint64_t off = std::min<std::uint64_t>(e.other, wall);
      const std::uint64_t dur = wall - off;
      s.r.off_cpu_ns += off;
      actor_state& a = s.actors[l.actor];
      a.end = l.start + dur;
      a.node = l.node;
      a.last_dur = dur;
      a.message = l.message;
      a.ns += dur;
      s.r.work_ns += dur;
      s.r.span_ns = std::max(s.r.span_ns, a.end);
      ++s.r.handlings;
      if (l.node != no_node && s.dag_on) s.nodes[l.node].ns = dur;
      l.open = false;
      break;
    }
    default:
      break;
  }
}

causality_result causality_builder::finish(bool full) {
  state& s = *s_;
  s.r.reordered += s.early.size();  // never sent in the trace
  causality_result r = s.r;
  if (!full || r.handlings == 0) {
    r.available = false;
    r.why = full ? "the trace has no message handlings" : "needs a full-level trace (sends and messages): record with --trace-level full";
    return r;
  }
  r.available = true;
  for (const auto& [id, a] : s.actors)
    if (a.ns > r.busiest_actor_ns || (a.ns == r.busiest_actor_ns && id < r.busiest_actor))
      r.busiest_actor = id, r.busiest_actor_ns = a.ns;
  if (!s.dag_on || s.nodes.empty()) return r;

  // The explicit DAG: one vertex per handling plus a source joined to every handling with
  // length 0; the longest path from the source (dag_shortest_paths with > as the comparison,
  // over the graph's topological order) is each handling's earliest start.
  using graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, boost::no_property,
                                      boost::property<boost::edge_weight_t, std::int64_t>>;
  const std::size_t n = s.nodes.size();
  graph g(n + 1);
  const auto source = boost::vertex(n, g);
  for (std::size_t v = 0; v < n; ++v) boost::add_edge(source, boost::vertex(v, g), 0, g);
  for (const auto& ed : s.edges) boost::add_edge(ed.from, ed.to, std::int64_t(ed.length), g);
  std::vector<std::int64_t> dist(n + 1);
  std::vector<graph::vertex_descriptor> pred(n + 1);
  try {
  boost::dag_shortest_paths(g, source,
                            boost::distance_map(dist.data())
                                .predecessor_map(pred.data())
                                .distance_compare(std::greater<std::int64_t>())
                                .distance_inf(std::numeric_limits<std::int64_t>::min())
                                .distance_zero(std::int64_t(0)));
  } catch (const boost::not_a_dag&) {  // clock order contradicted causality: only the numbers
    return r;
  }
  std::size_t last = 0;
  std::int64_t best = -1;
  for (std::size_t v = 0; v < n; ++v)
    if (dist[v] + std::int64_t(s.nodes[v].ns) > best) best = dist[v] + std::int64_t(s.nodes[v].ns), last = v;
  r.dag_span_ns = std::uint64_t(best);
  for (std::size_t v = last; v != n; v = pred[v]) {
    r.path.push_back({s.nodes[v].actor, s.nodes[v].message, s.nodes[v].begin_ns, s.nodes[v].ns});
    if (pred[v] == v) break;
  }
  std::reverse(r.path.begin(), r.path.end());
  r.path_listed = true;
  r.dag_bytes = n * (sizeof(dag_node) + 3 * 32) + s.edges.size() * sizeof(dag_edge);
  return r;
}

}  // namespace twinsched::viz
