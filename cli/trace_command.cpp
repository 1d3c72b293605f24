// `twinsched trace info FILE`: a trace's header, what the run measured, event counts by kind, duration, per-worker
// time; `trace step` (step_command.cpp) registers beside it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/step_session.hpp"
#include "traces/trace_info.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_stats.hpp"

namespace twinsched::cli {
namespace {

struct info_options {
  std::string file;
  bool json = false, quick = false;
};

int info(const info_options& o) {
  traces::trace_reader r(o.file);
  traces::trace_stats st;
  if (!o.quick) st = traces::compute_stats(r);  // decodes every block: checks every payload checksum too
  if (o.json)
    std::cout << traces::info_json(r, o.file, o.quick ? nullptr : &st).dump(2) << '\n';
  else
    traces::write_info_text(std::cout, r, o.file, o.quick ? nullptr : &st);
  return 0;
}

}  // namespace

void add_trace_command(CLI::App& app, action& chosen) {
  CLI::App* trace = app.add_subcommand(
      "trace", "Inspect a trace file (.tst) written by `run --trace`, `sim --trace`, `validate` or `replay`.");
  trace->require_subcommand(1);
  auto o = std::make_shared<info_options>();
  CLI::App* info_cmd = trace->add_subcommand(
      "info",
      "Print a trace's header (scenario, backend, machine, workers, policy, clock), event counts by kind, "
      "duration and per-worker time shares. Reads the whole file once, checking every checksum.");
  info_cmd->add_option("file", o->file, "Trace file (.tst).")->required()->type_name("FILE");
  info_cmd->add_flag("--json", o->json, "Print one JSON object instead of text.");
  info_cmd->add_flag("--quick", o->quick, "Only the header and the footer's totals: do not decode the events.");
  info_cmd->footer(R"(Times: every tool shows a trace's times since the run began, its first event (the
workload's start); "time zero" says where that is on the trace's own clock, which a real
run starts while it sets the recorder up.
Examples:
  twinsched run forward --trace a.tst && twinsched trace info a.tst
  twinsched sim skewed --cores 2 --trace sim.tst && twinsched trace info sim.tst --json
  twinsched trace info big.tst --quick                the header and totals only, at once
Exit codes: 0 the trace reads back intact, 2 it is missing or damaged (the message names the byte).)");
  info_cmd->callback([&chosen, o] { chosen = [o] { return info(*o); }; });
  add_trace_step_command(trace, chosen);
}

}  // namespace twinsched::cli
