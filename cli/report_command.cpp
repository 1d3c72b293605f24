// `twinsched report TRACE [TRACE2] -o report.html`: one self-contained HTML page of one trace, or two compared.
#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "traces/diff.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"
#include "viz/html_report.hpp"

namespace twinsched::cli {
namespace {

struct report_cli {
  std::vector<std::string> files;
  std::string out;
  viz::profile_options opt;
};

int report(const report_cli& o) {
  files::check_output(o.out, "-o", o.files);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<traces::trace_reader>> readers;
  std::vector<viz::report_run> runs;
  progress p("report", progress::mode_for(false));
  // "reading a.tst: 1.2 M of 4.0 M events read, 2.1 s": the events this phase's readers decoded
  // (comparing two simulations reads them twice, the second time only up to a difference: no total)
  auto phase = [&](const std::string& what, std::vector<const traces::trace_reader*> rs, bool counted) {
    std::uint64_t base = 0, total = 0;
    for (auto* r : rs) base += r->events_read(), total += counted ? r->events() : 0;
    const double from = p.elapsed_s();
    return [&p, what, rs, base, total, from] {
      std::uint64_t n = 0;
      for (auto* r : rs) n += r->events_read();
      return what + ": " + count_of_text(n - base, total, "events") + " read, " + duration_text(p.elapsed_s() - from);
    };
  };
  for (const auto& f : o.files) {
    readers.push_back(std::make_unique<traces::trace_reader>(f));
    progress_ticker ticker(p, phase("reading " + f, {readers.back().get()}, true));
    runs.push_back({f, viz::profile_trace(*readers.back(), o.opt)});
  }
  std::unique_ptr<traces::diff_report> d;
  if (runs.size() == 2) {
    progress_ticker ticker(p, phase("comparing the two", {readers[0].get(), readers[1].get()}, false));
    d = std::make_unique<traces::diff_report>(traces::diff_traces(*readers[0], *readers[1], {}));
  }
  p.finish();
  files::output_file out(o.out);
  viz::write_report(out.stream(), runs, d.get());
  out.commit();
  std::ifstream size(o.out, std::ios::binary | std::ios::ate);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cerr << "twinsched: wrote " << o.out << " (" << (std::uint64_t(size.tellg()) + 1023) / 1024 << " KiB, "
            << s << " s); open it in a browser\n";
  return 0;
}

constexpr const char* report_footer = R"(The page is one file: styles, script and charts (SVG) inline, nothing fetched, so it
opens from disk (file://) and can be mailed. For one trace it shows:
  - the run: scenario, backend, policy, makespan, messages, verdict;
  - workers over time: each worker's share of each moment running a turn, idle or parked
    (wheel to zoom, drag to pan, all time charts together; zoomed in, single turns);
  - throughput; runnable actors queued and parked workers; steals, donations,
    migrations and the thread count (adaptive's scale-up);
  - queueing delay (send -> handling) histograms per actor group, p50/p90/p99 marked;
  - the hottest actors and busiest edges of the communication graph;
  - the critical path: work, span, parallelism and the makespan bound on N cores
    (needs a full-level trace; see `twinsched analyze --help`).
With two traces (sim vs real, policy A vs B): the `diff` table with the largest
differences highlighted, the logical-equivalence verdict, the time charts overlaid,
then each run's panels.
Times are since the run began (its first event: the workload's start), the time zero of
trace step, trace info, diff, analyze and export perfetto too: a time read off a chart
finds the same event with `twinsched trace step FILE --until TIME --batch`.
Large traces are read once, streaming; charts are cut into --bins columns and at most
--max-spells exact spells are kept for zooming in. On a terminal, reading that takes more
than a second shows a progress line on stderr: the events read of the trace's total.
Examples:
  twinsched sim pi --cores 4 --trace pi.tst && twinsched report pi.tst -o pi.html
  mkdir -p v && twinsched validate forward --out v                   real and simulated traces
  twinsched report v/forward.real.tst v/forward.sim.tst -o real-vs-sim.html)";

}  // namespace

void add_report_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<report_cli>();
  CLI::App* cmd = app.add_subcommand("report", "An HTML report of a trace, or of two traces compared: charts, graph, critical path.");
  cmd->footer(report_footer);
  cmd->add_option("traces", o->files, "One trace file (.tst), or two to compare (A then B).")
      ->required()
      ->expected(1, 2)
      ->type_name("TRACE [TRACE2]");
  cmd->add_option("-o,--output", o->out, "HTML file to write.")->required()->type_name("FILE");
  takes_whole(cmd->add_option("--bins", o->opt.bins, "Time columns the charts are cut into.")->type_name("N")->capture_default_str(),
              60, 5000);
  takes_whole(cmd->add_option("--max-spells", o->opt.max_segments,
                              "Exact running/idle/parked spells kept for zooming in; later ones are only summarized.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 10000000);
  takes_whole(cmd->add_option("--top", o->opt.top, "Hottest actors and busiest edges listed.")->type_name("N")->capture_default_str(),
              1, 1000);
  cmd->callback([&chosen, o] { chosen = [o] { return report(*o); }; });
}

}  // namespace twinsched::cli
