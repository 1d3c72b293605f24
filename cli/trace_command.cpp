// `twinsched trace info FILE`: a trace's header, what the run measured, event counts by kind, duration, per-worker
// time; `trace step` (step_command.cpp) registers beside it.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.hpp"
#include "cli/step_session.hpp"
#include "models/config.hpp"
#include "traces/format.hpp"
#include "traces/trace_reader.hpp"
#include "traces/trace_stats.hpp"

namespace twinsched::cli {
namespace {

struct info_options {
  std::string file;
  bool json = false, quick = false;
};

std::string hex64(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(v));
  return b;
}

std::string seconds(std::uint64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.6f s", double(ns) * 1e-9);
  return b;
}

std::string utc(std::uint64_t unix_s) {
  std::time_t t = std::time_t(unix_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[40];
  std::strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return b;
}

nlohmann::json header_json(const traces::trace_header& h) {
  return {{"version", h.version},
          {"scenario", h.scenario},
          {"scenario_hash", hex64(h.scenario_hash)},
          {"workload_hash", hex64(h.workload_hash)},
          {"seed", h.seed},
          {"backend", h.backend},
          {"machine", h.machine},
          {"workers", h.workers},
          {"lanes", h.lanes},
          {"policy", h.policy},
          {"idle", h.idle},
          {"clock", h.clock},
          {"level", level_name(h.level)},
          {"created_unix_s", h.created_unix_s},
          {"producer", h.producer}};
}

int info(const info_options& o) {
  traces::trace_reader r(o.file);
  const auto& h = r.header();
  const auto& f = r.footer();
  std::array<std::uint64_t, 16> by_kind{};
  for (const auto& l : f.lanes)
    for (unsigned k = 0; k < 16; ++k) by_kind[k] += l.by_kind[k];
  traces::trace_stats st;
  if (!o.quick) {
    st = traces::compute_stats(r);  // decodes every block: checks every payload checksum too
    by_kind = st.by_kind;
  }
  const double bytes_per_event = r.events() ? double(r.file_size()) / double(r.events()) : 0;
  if (o.json) {
    nlohmann::json kinds = nlohmann::json::object();
    for (unsigned k = 0; k < traces::kind_count; ++k)
      if (by_kind[k]) kinds[traces::kind_name(k)] = by_kind[k];
    nlohmann::json workers = nlohmann::json::array();
    for (const auto& [lane, w] : st.workers)
      workers.push_back({{"worker", lane},
                         {"span_ns", w.span()},
                         {"running_pct", w.share(w.running_ns)},
                         {"idle_pct", w.share(w.idle_ns)},
                         {"parked_pct", w.share(w.parked_ns)},
                         {"turns", w.turns},
                         {"messages", w.messages}});
    nlohmann::json out = {{"file", o.file},
                          {"bytes", r.file_size()},
                          {"header", header_json(h)},
                          {"events", r.events()},
                          {"blocks", r.blocks().size()},
                          {"bytes_per_event", bytes_per_event},
                          {"by_kind", kinds},
                          {"makespan_ns", f.wall_ns},
                          {"messages", f.messages},
                          {"expected_messages", f.expected_messages},
                          {"ok", f.ok},
                          {"clock_note", f.clock_note},
                          {"run_start_clock_ns", traces::run_start_ns(f)},
                          {"verified", !o.quick}};
    if (!o.quick) {
      out["duration_ns"] = st.duration();
      out["workers"] = workers;
      if (st.has_messages())
        out["queueing_ns"] = {{"p50", st.queueing.quantile(0.5)},
                              {"p90", st.queueing.quantile(0.9)},
                              {"p99", st.queueing.quantile(0.99)},
                              {"max", st.queueing.max()}};
    }
    std::cout << out.dump(2) << '\n';
    return 0;
  }
  std::cout << "file          " << o.file << "  (" << r.file_size() << " bytes, format version " << h.version << ")\n"
            << "scenario      " << h.scenario << "  (hash " << hex64(h.scenario_hash) << ", workload hash "
            << hex64(h.workload_hash) << ", seed " << h.seed << ")\n"
            << "run           " << h.backend << " on " << h.machine << "\n"
            << "scheduler     " << h.policy << ", idle " << h.idle << ", " << h.workers << " workers (" << h.lanes
            << " lanes)\n"
            << "recorded      " << level_name(h.level) << " level by " << h.producer << " at "
            << utc(h.created_unix_s) << "\n"
            << "clock         " << h.clock << ": " << f.clock_note << "\n"
            << "time zero     the run's first event, " << seconds(traces::run_start_ns(f))
            << " into the trace's clock: every tool shows times since it\n";
  char line[200];
  std::snprintf(line, sizeof line, "events        %llu in %zu blocks, %.2f bytes per event\n",
                static_cast<unsigned long long>(r.events()), r.blocks().size(), bytes_per_event);
  std::cout << line;
  if (!o.quick) std::cout << "duration      " << seconds(st.duration()) << " (first to last event)\n";
  std::cout << "makespan      " << seconds(f.wall_ns) << " (workers' start to quiescence)\n"
            << "messages      " << f.messages << " processed, " << f.expected_messages << " expected; checksum "
            << (f.checksum == f.reference ? "OK" : "FAIL") << "; verdict " << (f.ok ? "OK" : "FAIL") << "\n";
  std::cout << "events by kind\n";
  for (unsigned k = 0; k < traces::kind_count; ++k) {
    if (!by_kind[k]) continue;
    std::snprintf(line, sizeof line, "  %-14s %14llu\n", traces::kind_name(k),
                  static_cast<unsigned long long>(by_kind[k]));
    std::cout << line;
  }
  if (!o.quick && !st.workers.empty()) {
    std::cout << "  worker       span s  running%   idle%  parked%       turns    messages\n";
    for (const auto& [lane, w] : st.workers) {
      std::snprintf(line, sizeof line, "  %6u  %11.6f  %8.1f  %6.1f  %7.1f  %10llu  %10llu\n", unsigned(lane),
                    double(w.span()) * 1e-9, w.share(w.running_ns), w.share(w.idle_ns), w.share(w.parked_ns),
                    static_cast<unsigned long long>(w.turns), static_cast<unsigned long long>(w.messages));
      std::cout << line;
    }
  }
  if (!o.quick) {
    if (st.has_messages()) {
      std::snprintf(line, sizeof line,
                    "queueing      send -> message begin: p50 %llu ns, p90 %llu ns, p99 %llu ns, max %llu ns\n",
                    static_cast<unsigned long long>(st.queueing.quantile(0.5)),
                    static_cast<unsigned long long>(st.queueing.quantile(0.9)),
                    static_cast<unsigned long long>(st.queueing.quantile(0.99)),
                    static_cast<unsigned long long>(st.queueing.max()));
      std::cout << line;
    } else {
      std::cout << "queueing      not recorded (needs --trace-level full)\n";
    }
    std::cout << "checked       every block's checksum and encoding\n";
  }
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
