// `twinsched analyze TRACE`: the communication graph and the causality DAG of a trace, in text or JSON; GraphViz with --dot.
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"
#include "viz/run_profile.hpp"
#include "viz/svg_chart.hpp"

namespace twinsched::cli {
namespace {

struct analyze_cli {
  std::string file, dot;
  std::size_t dot_edges = 200;
  bool json = false;
  viz::profile_options opt;
};

std::string actor_name(std::uint32_t a) { return a == viz::start_vertex ? "start" : "actor " + std::to_string(a); }

nlohmann::json as_json(const viz::run_profile& p) {
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
    j["off_cpu"] = {{"recorded", p.off_cpu_recorded}, {"rule", viz::off_cpu_lines(p).front()}, {"workers", host}};
  }
  return j;
}

void print_text(const viz::run_profile& p, std::ostream& o) {
  const auto& g = p.graph;
  const auto& c = p.causality;
  o << "trace         " << p.header.scenario << ": " << p.header.backend << ", " << p.header.policy << ", "
    << p.header.workers << " workers, " << p.cores << " cores; makespan " << viz::fmt_ns(double(p.makespan_ns)) << '\n';
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
  o << "work          " << viz::fmt_ns(double(c.work_ns)) << " in " << c.handlings << " message handlings\n";
  o << "span          " << viz::fmt_ns(double(c.span_ns)) << " (the longest chain of handlings"
    << (c.path_listed ? ", " + std::to_string(c.path.size()) + " long" : "") << ")\n";
  o << "parallelism   " << std::fixed << std::setprecision(2) << c.parallelism() << " (work / span)\n";
  o << "busiest actor " << actor_name(c.busiest_actor) << ": " << viz::fmt_ns(double(c.busiest_actor_ns)) << '\n';
  o << "bound         max(work/N, span): ";
  for (unsigned k = 1; k <= std::max(16u, n); k *= 2)
    o << (k > 1 ? ", " : "") << "N=" << k << " " << viz::fmt_ns(double(c.bound_ns(k)));
  o << '\n';
  if (p.makespan_ns)
    o << "this run      " << viz::fmt_ns(double(p.makespan_ns)) << " on " << n << " cores = " << std::setprecision(2)
      << double(p.makespan_ns) / double(c.bound_ns(n)) << "x the bound of " << viz::fmt_ns(double(c.bound_ns(n)))
      << " (" << (double(c.work_ns) / n >= double(c.span_ns) ? "cores limit it" : "the graph's span limits it") << ")\n";
  for (const auto& line : viz::off_cpu_lines(p)) o << "off-CPU       " << line << '\n';
  if (c.reordered)
    o << "note          " << c.reordered << " handlings were stamped before their send (interpolated clock): no causal edge\n";
  if (!c.path_listed) o << "note          the critical path is not listed: more than --max-dag-nodes handlings\n";
}

int analyze(const analyze_cli& o) {
  if (!o.dot.empty()) files::check_output(o.dot, "--dot", {o.file});
  traces::trace_reader r(o.file);
  viz::run_profile p = viz::profile_trace(r, o.opt);
  if (!o.dot.empty()) {
    files::output_file f(o.dot);
    viz::write_dot(p.comm, f.stream(), o.dot_edges);
    f.commit();
  }
  if (o.json)
    std::cout << as_json(p).dump(2) << '\n';
  else
    print_text(p, std::cout);
  return 0;
}

constexpr const char* analyze_footer = R"(The communication graph: actors are vertices, a sender -> receiver pair with its message
count is an edge (the sender is the actor whose turn sent it; actor 0 is the workload's
start). Strongly connected components show where messages go round; groups are the
actors declared equal (donation).
The causality DAG (full-level traces): a node is one message's handling, weighted by its
duration; it waits for the handling that sent it (up to the moment of the send) and for
its actor's previous handling. In a real run's trace a handling's duration leaves out the
time its worker was off a CPU: the gaps in its busy loops' clock reads (burn_ns), and over
a stretch of 50 us or more between the recorder's clock reads, the wall time the thread's
CPU clock did not count (preempted, or blocked on a lock whose holder was). "off-CPU" says
so, with each worker's run delay (the time the kernel kept it waiting for a CPU) and what
its handlings left out: more than the run delay is time blocked, less is time the host took
between handlings. A virtual CPU that the hypervisor deschedules is not seen by the guest
outside a busy loop. work = all handlings; span = the longest chain;
parallelism = work / span; on N cores no schedule ends before max(work/N, span). The run's
makespan over that bound says how much the policy and the runtime's own costs added.
Times are since the run began (its first event), as in trace step, trace info, diff, report
and export perfetto.
Memory: one entry per actor and per message in flight; the explicit DAG (Boost.Graph, to
list the path) only up to --max-dag-nodes handlings.
Examples:
  twinsched sim pi --cores 16 --trace pi16.tst && twinsched analyze pi16.tst
  twinsched analyze run.tst --dot graph.dot --dot-edges 50 && dot -Tsvg graph.dot -o graph.svg
  twinsched analyze run.tst --json)";

}  // namespace

void add_analyze_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<analyze_cli>();
  CLI::App* cmd = app.add_subcommand("analyze", "A trace's communication graph and critical path: work, span, parallelism, the speed-up bound.");
  cmd->footer(analyze_footer);
  cmd->add_option("file", o->file, "Trace file (.tst).")->required()->type_name("FILE");
  cmd->add_option("--dot", o->dot, "Also write the communication graph as GraphViz (the busiest --dot-edges edges).")->type_name("FILE");
  takes_whole(cmd->add_option("--dot-edges", o->dot_edges, "Edges in the GraphViz file, busiest first.")->type_name("N")->capture_default_str(),
              1, 100000);
  takes_whole(cmd->add_option("--top", o->opt.top, "Edges listed.")->type_name("N")->capture_default_str(), 1, 1000);
  takes_whole(cmd->add_option("--max-dag-nodes", o->opt.max_dag_nodes,
                              "Handlings the explicit DAG may hold to list the critical path (about 150 bytes each); "
                              "beyond, only the numbers.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 100000000);
  cmd->add_flag("--json", o->json, "Print one JSON object instead of text.");
  cmd->callback([&chosen, o] {
    o->opt.max_segments = 0;  // no timeline here
    chosen = [o] { return analyze(*o); };
  });
}

}  // namespace twinsched::cli
