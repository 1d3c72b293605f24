// `trace info`'s text and JSON: a trace's header, what the run measured, events by kind, per-worker time.
#include "trace_info.hpp"

#include <cstdio>
#include <ctime>
#include <ostream>

#include "format.hpp"
#include "models/config.hpp"
#include "run_summary.hpp"

namespace twinsched::traces {
namespace {

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

nlohmann::json header_json(const trace_header& h) {
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

/// Events by kind: counted while decoding (st), or the footer's totals (quick).
std::array<std::uint64_t, 16> events_by_kind(const trace_reader& r, const trace_stats* st) {
  if (st) return st->by_kind;
  std::array<std::uint64_t, 16> by_kind{};
  for (const auto& l : r.footer().lanes)
    for (unsigned k = 0; k < 16; ++k) by_kind[k] += l.by_kind[k];
  return by_kind;
}

}  // namespace

nlohmann::json info_json(const trace_reader& r, const std::string& file, const trace_stats* st) {
  const auto& h = r.header();
  const auto& f = r.footer();
  const std::array<std::uint64_t, 16> by_kind = events_by_kind(r, st);
  const double bytes_per_event = r.events() ? double(r.file_size()) / double(r.events()) : 0;
  nlohmann::json kinds = nlohmann::json::object();
  for (unsigned k = 0; k < kind_count; ++k)
    if (by_kind[k]) kinds[kind_name(k)] = by_kind[k];
  nlohmann::json workers = nlohmann::json::array();
  for (const auto& [lane, w] : st ? st->workers : std::map<std::uint16_t, worker_time>{})
    workers.push_back({{"worker", lane},
                       {"span_ns", w.span()},
                       {"running_pct", w.share(w.running_ns)},
                       {"idle_pct", w.share(w.idle_ns)},
                       {"parked_pct", w.share(w.parked_ns)},
                       {"turns", w.turns},
                       {"messages", w.messages}});
  nlohmann::json out = {{"file", file},
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
                        {"latency_recorded", f.latency_recorded},
                        {"request_latency", {{"count", f.request_latency.count}, {"p50_ns", f.request_latency.p50_ns},
                                             {"p99_ns", f.request_latency.p99_ns}, {"p999_ns", f.request_latency.p999_ns},
                                             {"max_ns", f.request_latency.max_ns}}},
                        {"timers", f.timers},
                        {"run_start_clock_ns", run_start_ns(f)},
                        {"verified", st != nullptr}};
  if (st) {
    out["duration_ns"] = st->duration();
    out["workers"] = workers;
    if (st->has_messages())
      out["queueing_ns"] = {{"p50", st->queueing.quantile(0.5)},
                            {"p90", st->queueing.quantile(0.9)},
                            {"p99", st->queueing.quantile(0.99)},
                            {"max", st->queueing.max()}};
  }
  return out;
}

void write_info_text(std::ostream& out, const trace_reader& r, const std::string& file, const trace_stats* st) {
  const auto& h = r.header();
  const auto& f = r.footer();
  const std::array<std::uint64_t, 16> by_kind = events_by_kind(r, st);
  const double bytes_per_event = r.events() ? double(r.file_size()) / double(r.events()) : 0;
  out << "file          " << file << "  (" << r.file_size() << " bytes, format version " << h.version << ")\n"
      << "scenario      " << h.scenario << "  (hash " << hex64(h.scenario_hash) << ", workload hash "
      << hex64(h.workload_hash) << ", seed " << h.seed << ")\n"
      << "run           " << h.backend << " on " << h.machine << "\n"
      << "scheduler     " << h.policy << ", idle " << h.idle << ", " << h.workers << " workers (" << h.lanes
      << " lanes)\n"
      << "recorded      " << level_name(h.level) << " level by " << h.producer << " at "
      << utc(h.created_unix_s) << "\n"
      << "clock         " << h.clock << ": " << f.clock_note << "\n"
      << "time zero     the run's first event, " << seconds(run_start_ns(f))
      << " into the trace's clock: every tool shows times since it\n";
  char line[200];
  std::snprintf(line, sizeof line, "events        %llu in %zu blocks, %.2f bytes per event\n",
                static_cast<unsigned long long>(r.events()), r.blocks().size(), bytes_per_event);
  out << line;
  if (st) out << "duration      " << seconds(st->duration()) << " (first to last event)\n";
  out << "makespan      " << seconds(f.wall_ns) << " (workers' start to quiescence)\n"
      << "messages      " << f.messages << " processed, " << f.expected_messages << " expected; checksum "
      << (f.checksum == f.reference ? "OK" : "FAIL") << "; verdict " << (f.ok ? "OK" : "FAIL") << "\n";
  if (f.latency_recorded) {
    std::uint64_t cpu = 0;
    for (const auto& w : f.per_worker) cpu += w.cpu_ns;
    out << "cpu           " << seconds(cpu) << " over " << f.per_worker.size() << " workers\n";
    auto quantiles = [&](const char* name, const latency_summary& l, const char* what) {
      if (!l.count) return;
      out << name << "p50 " << seconds(l.p50_ns) << ", p99 " << seconds(l.p99_ns) << ", p99.9 " << seconds(l.p999_ns)
          << ", max " << seconds(l.max_ns) << "  (" << l.count << " " << what << ")\n";
    };
    quantiles("latency       ", f.request_latency, "requests");
    quantiles("sched delay   ", f.scheduling_delay, "turns sampled");
    if (f.timers) out << "timers        " << f.timers << " delivered\n";
  }
  out << "events by kind\n";
  for (unsigned k = 0; k < kind_count; ++k) {
    if (!by_kind[k]) continue;
    std::snprintf(line, sizeof line, "  %-14s %14llu\n", kind_name(k),
                  static_cast<unsigned long long>(by_kind[k]));
    out << line;
  }
  if (st && !st->workers.empty()) {
    out << "  worker       span s  running%   idle%  parked%       turns    messages\n";
    for (const auto& [lane, w] : st->workers) {
      std::snprintf(line, sizeof line, "  %6u  %11.6f  %8.1f  %6.1f  %7.1f  %10llu  %10llu\n", unsigned(lane),
                    double(w.span()) * 1e-9, w.share(w.running_ns), w.share(w.idle_ns), w.share(w.parked_ns),
                    static_cast<unsigned long long>(w.turns), static_cast<unsigned long long>(w.messages));
      out << line;
    }
  }
  if (st) {
    if (st->has_messages()) {
      std::snprintf(line, sizeof line,
                    "queueing      send -> message begin: p50 %llu ns, p90 %llu ns, p99 %llu ns, max %llu ns\n",
                    static_cast<unsigned long long>(st->queueing.quantile(0.5)),
                    static_cast<unsigned long long>(st->queueing.quantile(0.9)),
                    static_cast<unsigned long long>(st->queueing.quantile(0.99)),
                    static_cast<unsigned long long>(st->queueing.max()));
      out << line;
    } else {
      out << "queueing      not recorded (needs --trace-level full)\n";
    }
    out << "checked       every block's checksum and encoding\n";
  }
}

}  // namespace twinsched::traces
