// `twinsched export perfetto FILE -o OUT.json`: a trace as Chrome trace-event JSON, optionally a time window of it.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_reader.hpp"
#include "viz/perfetto_export.hpp"

namespace twinsched::cli {
namespace {

struct export_cli {
  std::string file, out;
  viz::perfetto_options opt;
};

int export_perfetto(const export_cli& o) {
  files::check_output(o.out, "-o", {o.file});
  traces::trace_reader r(o.file);
  files::output_file f(o.out);
  viz::perfetto_summary s = viz::export_perfetto(r, f.stream(), o.opt);
  f.commit();
  std::cerr << "twinsched: wrote " << o.out << ": " << s.slices << " slices, " << s.instants << " instants, " << s.flows
            << " message arrows, " << s.counters << " counter samples\n";
  if (s.sampled())
    std::cerr << "twinsched: message arrows are sampled: about 1 in " << s.sample_every << " of " << s.messages
              << " messages (--max-flows " << o.opt.max_flows << "); narrow the window with --from/--to to see more\n";
  return 0;
}

constexpr const char* export_footer =
    R"(Open the file in https://ui.perfetto.dev (or chrome://tracing). One track per worker with
actor turns (each containing its messages at the full level), idle spells and parks;
arrows from each send to the message it became; counters of runnable actors and parked
workers. Times are since the run began (its first event: the workload's start), the time
zero of trace step, trace info, diff, report and analyze too.
Examples:
  twinsched export perfetto run.tst -o run.json
  twinsched export perfetto run.tst -o window.json --from 1000000 --to 2000000 --max-flows 0)";

}  // namespace

void add_export_command(CLI::App& app, action& chosen) {
  CLI::App* exp = app.add_subcommand("export", "Convert a trace to another tool's format.");
  exp->require_subcommand(1);
  exp->footer("Example:\n  twinsched export perfetto run.tst -o run.json    then open run.json in ui.perfetto.dev");
  auto o = std::make_shared<export_cli>();
  CLI::App* cmd = exp->add_subcommand("perfetto", "Chrome trace-event JSON for ui.perfetto.dev / chrome://tracing.");
  cmd->footer(export_footer);
  cmd->add_option("file", o->file, "Trace file (.tst).")->required()->type_name("FILE");
  cmd->add_option("-o,--output", o->out, "JSON file to write.")->required()->type_name("OUT");
  constexpr std::uint64_t most = std::numeric_limits<std::uint64_t>::max();
  takes_whole(cmd->add_option("--from", o->opt.from_ns, "Window start, ns since the run began.")->type_name("NS"), 0, most);
  takes_whole(cmd->add_option("--to", o->opt.to_ns, "Window end, ns since the run began.")->type_name("NS"), 0, most);
  takes_whole(cmd->add_option("--max-flows", o->opt.max_flows,
                              "Message arrows at most (about); beyond it arrows are sampled by message id, and the "
                              "tool says so. 0: none.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, most);
  cmd->callback([&chosen, o] {
    if (o->opt.to_ns < o->opt.from_ns)
      throw usage_error("--to " + std::to_string(o->opt.to_ns) + " is before --from " + std::to_string(o->opt.from_ns));
    chosen = [o] { return export_perfetto(*o); };
  });
}

}  // namespace twinsched::cli
