// `twinsched analyze TRACE`: the communication graph and the causality DAG of a trace, in text or JSON; GraphViz with --dot.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"
#include "viz/analysis_text.hpp"
#include "viz/run_profile.hpp"

namespace twinsched::cli {
namespace {

struct analyze_cli {
  std::string file, dot;
  std::size_t dot_edges = 200;
  bool json = false;
  viz::profile_options opt;
};

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
    std::cout << viz::analysis_json(p).dump(2) << '\n';
  else
    viz::write_analysis_text(std::cout, p);
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
