// The report's single pass over a trace: the workers' states (traces::worker_states) and every event feeding time bins, spells, delays and the graphs.
#include "run_profile.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>

#include "svg_chart.hpp"
#include "traces/format.hpp"
#include "traces/worker_states.hpp"

namespace twinsched::viz {

unsigned delay_histogram::bin_of(std::uint64_t ns) {
  return unsigned(std::floor(4.0 * std::log2(double(ns) + 1.0)));
}
double delay_histogram::bin_low(unsigned k) { return std::exp2(double(k) / 4.0) - 1.0; }

namespace {

/// Adds `weight` times the overlap of [b, e) with each bin (times since the run began).
void spread(std::vector<float>& v, std::uint64_t bin_ns, std::uint64_t b, std::uint64_t e, double weight) {
  if (e <= b || weight == 0) return;
  const std::size_t last = v.size() - 1;
  for (std::size_t k = std::min<std::size_t>(b / bin_ns, last); k <= last; ++k) {
    const std::uint64_t lo = k * bin_ns, hi = k == last ? ~std::uint64_t(0) : lo + bin_ns;
    if (lo >= e) break;
    const std::uint64_t from = std::max(b, lo), to = std::min(e, hi);
    if (to > from) v[k] += float(weight * double(to - from));
  }
}

/// A time-weighted level (runnable actors, parked workers, threads) accumulated into bins.
struct level {
  std::int64_t value = 0;
  std::uint64_t since = 0;
  void set(std::vector<float>& v, std::uint64_t bin_ns, std::uint64_t t, std::int64_t to) {
    spread(v, bin_ns, since, t, double(std::max<std::int64_t>(value, 0)));
    value = to;
    since = t;
  }
};

}  // namespace

run_profile profile_trace(const traces::trace_reader& r, const profile_options& o) {
  run_profile p;
  p.header = r.header();
  const traces::trace_footer& f = r.footer();
  p.makespan_ns = f.wall_ns;
  p.latency_recorded = f.latency_recorded;
  p.request_latency = f.request_latency;
  p.scheduling_delay = f.scheduling_delay;
  for (const auto& w : f.per_worker) p.cpu_ns += w.cpu_ns;
  p.messages = f.messages;
  p.ok = f.ok;
  p.events = r.events();
  p.cores = p.header.sim_cores ? p.header.sim_cores : p.header.workers;
  p.start_ns = traces::run_start_ns(f);
  p.off_cpu_recorded = f.off_cpu_recorded;
  for (const auto& l : f.lanes)
    if (l.lane != traces::outside_lane && (l.run_delay_ns >= 0 || l.off_cpu_ns))
      p.host.push_back({l.lane, l.run_delay_ns, l.off_cpu_ns});
  for (const auto& l : f.lanes)
    if (l.events) p.end_ns = std::max(p.end_ns, traces::since_run_start(l.last_ns, p.start_ns));
  // Fewer columns when there are many workers: the timeline's size is workers x bins.
  const std::size_t lanes = std::max<std::size_t>(1, r.lanes().size());
  p.bins = std::max(60u, std::min<unsigned>(o.bins, unsigned(24000 / lanes)));
  p.bin_ns = std::max<std::uint64_t>(1, (p.end_ns + p.bins - 1) / p.bins);
  for (auto* v : {&p.throughput, &p.runnable, &p.parked, &p.threads, &p.steals, &p.donations, &p.migrations})
    v->assign(p.bins, 0.f);

  std::unordered_map<std::uint32_t, std::uint32_t> group_of;
  for (const auto& a : f.actors) group_of[a.id] = a.group;
  std::unordered_map<std::uint64_t, std::uint64_t> sent_at;  // messages in flight: id -> send time
  std::unordered_map<std::uint32_t, hot_actor> hot;
  level runnable, parked, threads;
  causality_builder dag(o.max_dag_nodes);
  const bool full = p.header.level == trace_level::full;

  /// The workers' spells (traces::worker_states) into the timeline, and every event into the rest.
  struct pass : traces::worker_visitor {
    std::function<void(const traces::status_segment&)> on_segment;
    std::function<void(const traces::worker_span&)> on_span;
    std::function<void(const trace_event&)> on_event;
    void segment(const traces::status_segment& s) override { on_segment(s); }
    void span(const traces::worker_span& s) override { on_span(s); }
    void event(const trace_event& e) override { on_event(e); }
  } walk;
  auto bin_of = [&](std::uint64_t t) { return std::min<std::size_t>(t / p.bin_ns, p.bins - 1); };
  walk.on_segment = [&](const traces::status_segment& s) {
    using ws = traces::worker_status;
    if (s.status != ws::running && s.status != ws::idle && s.status != ws::parked) return;
    auto& w = p.workers[s.lane];
    if (w[0].empty())
      for (auto& v : w) v.assign(p.bins, 0.f);
    const unsigned which = s.status == ws::running ? 0 : s.status == ws::idle ? 1 : 2;
    spread(w[which], p.bin_ns, s.begin_ns, s.end_ns, 1.0);
    if (!p.spells_complete || s.end_ns <= s.begin_ns) return;
    if (p.spells.size() >= o.max_segments) {
      p.spells_complete = false;
      p.spells_until_ns = s.begin_ns;
      return;
    }
    const worker_state state = s.status == ws::running ? worker_state::running
                               : s.status == ws::idle  ? worker_state::idle
                                                       : worker_state::parked;
    p.spells.push_back({s.begin_ns, s.end_ns, s.actor, s.lane, state});
  };
  walk.on_span = [&](const traces::worker_span& s) {
    if (s.kind != traces::span_kind::turn || !s.ended) return;
    hot_actor& h = hot[s.actor];
    h.actor = s.actor;
    h.messages += s.processed;
    const std::uint64_t wall = s.end_ns - s.begin_ns;
    h.turn_ns += wall - std::min(wall, s.off_cpu_ns);  // time off a CPU is not the actor's (format.hpp)
    ++h.turns;
    p.throughput[bin_of(s.end_ns)] += float(s.processed);
  };
  std::uint64_t now = 0;
  walk.on_event = [&](const trace_event& e) {
    now = e.time_ns;
    ++p.totals[unsigned(e.kind) & 15];
    p.comm.add(e);
    if (full) dag.add(e);
    const std::size_t bin = bin_of(now);
    const bool worker = e.worker != traces::outside_lane;
    switch (e.kind) {
      case event_kind::worker_start:
        if (worker) threads.set(p.threads, p.bin_ns, now, threads.value + 1);
        break;
      case event_kind::worker_stop:
        if (worker) threads.set(p.threads, p.bin_ns, now, threads.value - 1);
        break;
      case event_kind::run_begin:
        if (worker) runnable.set(p.runnable, p.bin_ns, now, runnable.value - 1);
        break;
      case event_kind::park:
        if (worker) parked.set(p.parked, p.bin_ns, now, parked.value + 1);
        break;
      case event_kind::unpark:
        if (worker) parked.set(p.parked, p.bin_ns, now, parked.value - 1);
        break;
      case event_kind::schedule:
        runnable.set(p.runnable, p.bin_ns, now, runnable.value + 1);
        break;
      case event_kind::steal:
        p.steals[bin] += 1;
        break;
      case event_kind::donate:
        p.donations[bin] += 1;
        break;
      case event_kind::migrate:
        p.migrations[bin] += 1;
        break;
      case event_kind::send:
        sent_at[e.message] = e.time_ns;
        break;
      case event_kind::message_begin: {
        auto it = sent_at.find(e.message);
        if (it == sent_at.end()) break;  // stamped before its send (interpolated clocks): not a delay
        const std::uint64_t d = e.time_ns >= it->second ? e.time_ns - it->second : 0;
        sent_at.erase(it);
        auto g = group_of.find(e.actor);
        delay_histogram& h = p.delays[g == group_of.end() ? 0 : g->second];
        h.exact.add(d);
        const unsigned k = delay_histogram::bin_of(d);
        if (h.bins.size() <= k) h.bins.resize(k + 1, 0);
        ++h.bins[k];
        break;
      }
      default:
        break;
    }
  };
  traces::visit_worker_states(r, walk);  // ends the spells still open at the last event
  for (level* l : {&runnable, &parked, &threads}) {
    std::vector<float>& v = l == &runnable ? p.runnable : l == &parked ? p.parked : p.threads;
    l->set(v, p.bin_ns, std::max(now, l->since), l->value);
  }
  // levels and fractions: divide by each bin's length (the last may be shorter)
  const std::uint64_t span = p.end_ns;
  for (std::size_t k = 0; k < p.bins; ++k) {
    const std::uint64_t lo = k * p.bin_ns;
    const double len = double(lo >= span ? 1 : std::min(p.bin_ns, span - lo));
    for (auto* v : {&p.runnable, &p.parked, &p.threads}) (*v)[k] = float((*v)[k] / len);
    for (auto& [lane, w] : p.workers)
      for (auto& v : w) v[k] = float(std::min(1.0, v[k] / len));
    p.throughput[k] = float(double(p.throughput[k]) * 1e9 / len);
  }
  p.actors_seen = hot.size();
  for (auto& [id, h] : hot) {
    auto g = group_of.find(id);
    h.group = g == group_of.end() ? 0 : g->second;
    p.hottest.push_back(h);
  }
  std::sort(p.hottest.begin(), p.hottest.end(), [](const hot_actor& a, const hot_actor& b) {
    return a.turn_ns != b.turn_ns ? a.turn_ns > b.turn_ns : a.actor < b.actor;
  });
  if (p.hottest.size() > o.top) p.hottest.resize(o.top);
  p.graph = summarize(p.comm, group_of, o.top);
  p.causality = dag.finish(full);
  return p;
}

std::vector<std::string> off_cpu_lines(const run_profile& p) {
  if (p.header.backend != "threads") return {};  // simulated time is exact: nothing was taken
  if (!p.off_cpu_recorded)
    return {"recorded before twinsched accounted for time off a CPU: a handling's time includes any preemption "
            "(record it again to leave that out)"};
  std::vector<std::string> lines;
  lines.push_back("a handling leaves out the time its worker was off a CPU: gaps over 1 us in its busy loops' clock "
                  "reads (burn_ns), and, over a stretch of 50 us or more between two clock reads, what the thread's "
                  "CPU clock did not count; " +
                  fmt_ns(double(p.causality.off_cpu_ns)) + " left out in all");
  std::string took = "the kernel's run delay (the host took the CPU): ";
  for (std::size_t i = 0; i < p.host.size(); ++i) {
    const host_time& h = p.host[i];
    took += (i ? "; worker " : "worker ") + std::to_string(h.lane) + " " +
            (h.run_delay_ns < 0 ? std::string("unknown") : fmt_ns(double(h.run_delay_ns))) + ", its handlings left out " +
            fmt_ns(double(h.off_cpu_ns));
  }
  if (p.host.empty()) took += "not recorded";
  lines.push_back(took);
  return lines;
}

}  // namespace twinsched::viz
