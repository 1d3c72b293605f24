// The analysis of a trace (its communication graph and causality DAG) as text for a person and as JSON.
#include "analysis_text.hpp"

#include <iomanip>
#include <ostream>

#include "svg_chart.hpp"

namespace twinsched::viz {
namespace {

std::string actor_name(std::uint32_t a) { return a == start_vertex ? "start" : "actor " + std::to_string(a); }

}  // namespace

nlohmann::json analysis_json(const run_profile& p) {
  const auto& g = p.graph;
  const auto& c = p.causality;
  nlohmann::json j;
  j["trace"] = {{"scenario", p.header.scenario}, {"backend", p.header.backend}, {"policy", p.header.policy},
                {"workers", p.header.workers}, {"cores", p.cores}, {"makespan_ns", p.makespan_ns}, {"events", p.events}};
  nlohmann::json edges = nlohmann::json::array();
  for (const auto& e : g.top_edges) edges.push_back({{"from", e.from}, {"to", e.to}, {"messages", e.messages}});
  nlohmann::json groups = nlohmann::json::object();
  for (auto [id, n] : g.groups) groups[std::to_string(id)] = n;
  j["graph"] = {{"vertices", g.actors}, {"edges", g.edges}, {"messages", g.messages},
                {"strong_components", g.components}, {"cyclic_components", g.cyclic_components},
                {"largest_component", g.largest_component}, {"groups", groups}, {"top_edges", edges}};
  nlohmann::json dag = {{"available", c.available}};
  if (!c.available) {
    dag["why"] = c.why;
  } else {
    dag.update({{"handlings", c.handlings}, {"work_ns", c.work_ns}, {"span_ns", c.span_ns},
                {"parallelism", c.parallelism()}, {"busiest_actor", c.busiest_actor},
                {"busiest_actor_ns", c.busiest_actor_ns}, {"bound_ns", c.bound_ns(std::max(1u, p.cores))},
                {"reordered", c.reordered}, {"path_listed", c.path_listed}, {"path_length", c.path.size()}});
    if (p.makespan_ns) dag["makespan_over_bound"] = double(p.makespan_ns) / double(c.bound_ns(std::max(1u, p.cores)));
    dag["off_cpu_ns"] = c.off_cpu_ns;
  }
  j["causality"] = dag;
  if (p.header.backend == "threads") {  // what the host took from each worker (a real run)
    nlohmann::json host = nlohmann::json::array();
    for (const auto& h : p.host)
      host.push_back({{"worker", h.lane},
                      {"run_delay_ns", h.run_delay_ns < 0 ? nlohmann::json() : nlohmann::json(h.run_delay_ns)},
                      {"handlings_left_out_ns", h.off_cpu_ns}});
    j["off_cpu"] = {{"recorded", p.off_cpu_recorded}, {"rule", off_cpu_lines(p).front()}, {"workers", host}};
  }
  return j;
}

void write_analysis_text(std::ostream& o, const run_profile& p) {
  const auto& g = p.graph;
  const auto& c = p.causality;
  o << "trace         " << p.header.scenario << ": " << p.header.backend << ", " << p.header.policy << ", "
    << p.header.workers << " workers, " << p.cores << " cores; makespan " << fmt_ns(double(p.makespan_ns)) << '\n';
  o << "graph         " << g.actors << " vertices (actor 0 = the workload's start), " << g.edges << " edges, "
    << g.messages << " messages\n";
  o << "components    " << g.components << " strongly connected, " << g.cyclic_components
    << " with messages going round (largest " << g.largest_component << " actors)\n";
  o << "groups        " << g.groups.size() << " groups of equal actors";
  for (auto [id, n] : g.groups) o << "; group " << id << ": " << n << " actors";
  o << "\ntop edges\n";
  for (const auto& e : g.top_edges)
    o << "  " << std::setw(12) << actor_name(e.from) << " -> " << std::left << std::setw(12) << actor_name(e.to)
      << std::right << std::setw(10) << e.messages << '\n';
  if (!c.available) {
    o << "causality     not available: " << c.why << '\n';
    return;
  }
  const unsigned n = std::max(1u, p.cores);
  o << "work          " << fmt_ns(double(c.work_ns)) << " in " << c.handlings << " message handlings\n";
  o << "span          " << fmt_ns(double(c.span_ns)) << " (the longest chain of handlings"
    << (c.path_listed ? ", " + std::to_string(c.path.size()) + " long" : "") << ")\n";
  o << "parallelism   " << std::fixed << std::setprecision(2) << c.parallelism() << " (work / span)\n";
  o << "busiest actor " << actor_name(c.busiest_actor) << ": " << fmt_ns(double(c.busiest_actor_ns)) << '\n';
  o << "bound         max(work/N, span): ";
  for (unsigned k = 1; k <= std::max(16u, n); k *= 2)
    o << (k > 1 ? ", " : "") << "N=" << k << " " << fmt_ns(double(c.bound_ns(k)));
  o << '\n';
  if (p.makespan_ns)
    o << "this run      " << fmt_ns(double(p.makespan_ns)) << " on " << n << " cores = " << std::setprecision(2)
      << double(p.makespan_ns) / double(c.bound_ns(n)) << "x the bound of " << fmt_ns(double(c.bound_ns(n)))
      << " (" << (double(c.work_ns) / n >= double(c.span_ns) ? "cores limit it" : "the graph's span limits it") << ")\n";
  for (const auto& line : off_cpu_lines(p)) o << "off-CPU       " << line << '\n';
  if (c.reordered)
    o << "note          " << c.reordered << " handlings were stamped before their send (interpolated clock): no causal edge\n";
  if (!c.path_listed) o << "note          the critical path is not listed: more than --max-dag-nodes handlings\n";
}

}  // namespace twinsched::viz
