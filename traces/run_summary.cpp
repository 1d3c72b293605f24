// The summary of one run on either backend, as aligned text for people or as one JSON object for tools.
#include "run_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <string>
#include <variant>

#include "models/workload/workload.hpp"

namespace twinsched::traces {

std::string hex64(std::uint64_t x) {
  char b[24];
  std::snprintf(b, sizeof b, "%016llx", static_cast<unsigned long long>(x));
  return b;
}
namespace {

struct totals {
  std::uint64_t steals = 0, parks = 0, wakeups = 0, donations = 0, migrations = 0;
};

totals sum(const run_result& r) {
  totals t;
  for (const auto& w : r.per_worker) {
    t.steals += w.steals;
    t.parks += w.parks;
    t.wakeups += w.wakeups;
    t.donations += w.donations;
    t.migrations += w.migrations;
  }
  return t;
}

double share(std::uint64_t part, const worker_stats& w) {
  const std::uint64_t all = w.busy_ns + w.idle_ns;
  return all == 0 ? 0.0 : 100.0 * double(part) / double(all);
}

/// The workload's parameters with defaults filled in (what the run actually used).
std::map<std::string, param_value> effective_params(const scenario& s) {
  const workload_info* w = find_workload(s.workload);
  return w ? with_defaults(*w, s.workload_params).values : s.workload_params;
}

std::string fmt(const char* f, double x) {
  char b[64];
  std::snprintf(b, sizeof b, f, x);
  return b;
}

std::string rate(double per_s) {
  if (per_s >= 1e6) return fmt("%.2f M", per_s / 1e6);
  if (per_s >= 1e3) return fmt("%.2f k", per_s / 1e3);
  return fmt("%.0f", per_s);
}

void print_workers(std::ostream& out, const run_result& r) {
  out << "  worker   busy%   idle%      messages    steals     parks  wake-ups\n";
  for (std::size_t i = 0; i < r.per_worker.size(); ++i) {
    const auto& w = r.per_worker[i];
    char line[160];
    std::snprintf(line, sizeof line, "  %6zu  %6.1f  %6.1f  %12llu  %8llu  %8llu  %8llu\n", i, share(w.busy_ns, w),
                  share(w.idle_ns, w), static_cast<unsigned long long>(w.messages),
                  static_cast<unsigned long long>(w.steals), static_cast<unsigned long long>(w.parks),
                  static_cast<unsigned long long>(w.wakeups));
    out << line;
  }
}

std::string ns_text(double ns) {
  if (ns >= 1e9) return fmt("%.3g s", ns / 1e9);
  if (ns >= 1e6) return fmt("%.3g ms", ns / 1e6);
  if (ns >= 1e3) return fmt("%.3g us", ns / 1e3);
  return fmt("%.0f ns", ns);
}

std::string quantiles_text(const latency_summary& l) {
  return "p50 " + ns_text(double(l.p50_ns)) + ", p99 " + ns_text(double(l.p99_ns)) + ", p99.9 " +
         ns_text(double(l.p999_ns)) + ", max " + ns_text(double(l.max_ns));
}

/// Each worker's CPU time as a share of the run's time (100%: a whole core all along).
double cpu_share(const worker_stats& w, double wall_s) { return wall_s > 0 ? 100.0 * double(w.cpu_ns) / (wall_s * 1e9) : 0; }

void print_cpu(std::ostream& out, const run_result& r) {
  std::uint64_t parked = 0, idle = 0, all = 0;
  for (const auto& w : r.per_worker) parked += w.parked_ns, idle += w.idle_ns, all += w.busy_ns + w.idle_ns;
  out << "cpu           " << fmt("%.4g", double(r.cpu_ns()) * 1e-9) << " s: " << fmt("%.1f", 100.0 * r.cpu_share())
      << "% of " << r.per_worker.size() << (r.per_worker.size() == 1 ? " worker" : " workers") << " x " << fmt("%.4g", r.wall_s)
      << " s (per worker";
  for (const auto& w : r.per_worker) out << ' ' << fmt("%.1f", cpu_share(w, r.wall_s)) << '%';
  out << "); of the workers' time: turns " << fmt("%.1f", all ? 100.0 * double(all - idle) / double(all) : 0.0)
      << "%, idle awake " << fmt("%.1f", all ? 100.0 * double(idle - std::min(idle, parked)) / double(all) : 0.0)
      << "%, parked " << fmt("%.1f", all ? 100.0 * double(std::min(idle, parked)) / double(all) : 0.0) << "%\n";
  if (r.request_latency.count)
    out << "latency       " << quantiles_text(r.request_latency) << "  (" << r.request_latency.count
        << " requests, arrival to completion)\n";
  if (r.scheduling_delay.count)
    out << "sched delay   " << quantiles_text(r.scheduling_delay) << "  (" << r.scheduling_delay.count
        << " turns, runnable to running: every timer's and 1 in " << r.scheduling_sample << " of the workers' pushes)\n";
  if (r.timers)
    out << "timers        " << r.timers << " delivered, late by " << ns_text(r.timer_late_mean_ns) << " on average, "
        << ns_text(double(r.timer_late_max_ns)) << " at most\n";
}

nlohmann::json latency_json(const latency_summary& l) {
  return {{"count", l.count}, {"mean_ns", l.mean_ns}, {"p50_ns", l.p50_ns}, {"p99_ns", l.p99_ns}, {"p999_ns", l.p999_ns},
          {"max_ns", l.max_ns}};
}

}  // namespace

std::string failure_reasons(const run_result& r) {
  std::string why;
  auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (r.checksum != r.reference) add("checksum differs from the sequential reference");
  if (r.messages != r.expected_messages)
    add(std::to_string(r.messages) + " messages processed, " + std::to_string(r.expected_messages) + " expected");
  if (r.leftover) add(std::to_string(r.leftover) + " mailboxes or queued actors left over");
  if (!r.workload_ok) add("the workload's own result check failed");
  std::size_t sim = 0;
  for (const auto& e : r.errors) sim += e.rfind("simulation: ", 0) == 0;
  if (sim) add("the simulation failed (errors above)");
  if (r.errors.size() > sim)
    add(std::to_string(r.errors.size() - sim) + (r.errors.size() - sim == 1 ? " behavior" : " behaviors") + " threw");
  return why;
}

std::string param_text(const param_value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>) return "\"" + x + "\"";
        else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, double>) {
          char b[32];
          std::snprintf(b, sizeof b, "%g", x);
          return b;
        } else return std::to_string(x);
      },
      v);
}

void print_summary(std::ostream& out, const scenario& s, const run_result& r) {
  const totals t = sum(r);
  const bool sim = r.backend == "sim";
  std::string params;
  for (const auto& [k, v] : effective_params(s)) params += " " + k + "=" + param_text(v);
  out << "scenario      " << s.name << "  (" << s.source << ")\n"
      << "workload      " << s.workload << " " << params << '\n'
      << "scheduler     " << s.sched.policy << ", idle " << s.sched.idle.strategy << ", " << s.sched.workers
      << " workers, burst " << s.sched.burst << ", backend " << (r.backend.empty() ? "threads" : r.backend) << '\n'
      << "messages      " << r.messages << " processed, " << r.expected_messages << " expected\n"
      << (sim ? "sim time      " : "wall time     ") << fmt(sim ? "%.6f" : "%.3f", r.wall_s) << " s"
      << (sim ? " simulated, " : ", ")
      << rate(r.msgs_per_s()) << " msgs/s\n";
  print_workers(out, r);
  print_cpu(out, r);
  out << "steals        " << t.steals << '\n'
      << "parks         " << t.parks << '\n'
      << "wake-ups      " << t.wakeups << '\n'
      << "donations     " << t.donations << '\n'
      << "migrations    " << t.migrations << "  (actors the policy moved to another worker)\n";
  if (r.thread_timeline.size() > 1) {
    out << "threads       peak " << r.peak_workers << ", final " << r.final_workers << ", scale-up "
        << fmt("%.3f", r.scale_up_s * 1e3) << " ms; over time (ms:threads)";
    constexpr std::size_t points = 12;  // the first points, then the last: enough to see up and down
    for (std::size_t i = 0; i < r.thread_timeline.size(); ++i) {
      if (i == points && r.thread_timeline.size() > points + 1) {
        out << " ...";
        i = r.thread_timeline.size() - 1;
      }
      out << ' ' << fmt("%.2f", r.thread_timeline[i].first * 1e3) << ':' << r.thread_timeline[i].second;
    }
    out << '\n';
  }
  out << "dead letters  " << r.dead_letters << '\n'
      << "errors        " << r.errors.size() << '\n';
  constexpr std::size_t shown = 10;
  for (std::size_t i = 0; i < r.errors.size() && i < shown; ++i) out << "  " << r.errors[i] << '\n';
  if (r.errors.size() > shown) out << "  ... and " << r.errors.size() - shown << " more (see --json)\n";
  out << "checksum      " << (r.checksum == r.reference ? "OK" : "FAIL") << "  (" << hex64(r.checksum)
      << ", reference " << hex64(r.reference) << ")\n";
  if (!r.detail.empty()) out << "detail        " << r.detail << '\n';
  out << "verdict       " << (r.ok() ? "OK" : "FAIL: " + failure_reasons(r)) << '\n';
}

nlohmann::json summary_json(const scenario& s, const run_result& r) {
  using nlohmann::json;
  const totals t = sum(r);
  json params = json::object();
  for (const auto& [k, v] : effective_params(s)) std::visit([&, &key = k](const auto& x) { params[key] = x; }, v);
  json workers = json::array();
  for (const auto& w : r.per_worker)
    workers.push_back({{"messages", w.messages}, {"turns", w.turns}, {"steals", w.steals}, {"parks", w.parks},
                       {"wakeups", w.wakeups}, {"donations", w.donations}, {"migrations", w.migrations},
                       {"busy_ns", w.busy_ns}, {"idle_ns", w.idle_ns},
                       {"busy_pct", share(w.busy_ns, w)}, {"idle_pct", share(w.idle_ns, w)},
                       {"parked_ns", w.parked_ns}, {"cpu_ns", w.cpu_ns}, {"cpu_pct", cpu_share(w, r.wall_s)}});
  return {{"scenario", s.name},
          {"source", s.source},
          {"backend", r.backend.empty() ? "threads" : r.backend},
          {"workload", s.workload},
          {"params", params},
          {"policy", s.sched.policy},
          {"idle", s.sched.idle.strategy},
          {"workers", s.sched.workers},
          {"burst", s.sched.burst},
          {"seed", s.seed},
          {"messages", r.messages},
          {"expected_messages", r.expected_messages},
          {"wall_s", r.wall_s},
          {"msgs_per_s", r.msgs_per_s()},
          {"per_worker", workers},
          {"cpu_ns", r.cpu_ns()},
          {"request_latency", latency_json(r.request_latency)},
          {"scheduling_delay", latency_json(r.scheduling_delay)},
          {"scheduling_sample", r.scheduling_sample},
          {"timers", {{"delivered", r.timers}, {"late_mean_ns", r.timer_late_mean_ns}, {"late_max_ns", r.timer_late_max_ns}}},
          {"steals", t.steals},
          {"parks", t.parks},
          {"wakeups", t.wakeups},
          {"donations", t.donations},
          {"migrations", t.migrations},
          {"threads", {{"peak", r.peak_workers}, {"final", r.final_workers}, {"scale_up_s", r.scale_up_s},
                       {"timeline", r.thread_timeline}}},
          {"dead_letters", r.dead_letters},
          {"errors", r.errors},
          {"checksum", hex64(r.checksum)},  // strings: a JSON number loses 64-bit precision in most readers
          {"reference", hex64(r.reference)},
          {"checksum_ok", r.checksum == r.reference},
          {"detail", r.detail},
          {"workload_ok", r.workload_ok},
          {"ok", r.ok()},
          {"failure", failure_reasons(r)}};
}

std::string fixed(double x, int digits) {
  std::ostringstream o;
  o << std::fixed << std::setprecision(digits) << x;
  return o.str();
}

}  // namespace twinsched::traces
