// The report's single pass over a trace: per-lane state machines feeding time bins, spells, delays and the graphs.
#include "run_profile.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "svg_chart.hpp"
#include "traces/format.hpp"
#include "traces/merged_cursor.hpp"

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

struct lane_track {
  worker_state state = worker_state::off;
  std::uint64_t since = 0;
  std::uint32_t actor = 0;
  std::uint64_t turn_begin = 0;
  std::uint64_t turn_off = 0;  // the turn's time off a CPU, from its message_end events
};

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
  std::unordered_map<std::uint16_t, lane_track> track;
  std::unordered_map<std::uint64_t, std::uint64_t> sent_at;  // messages in flight: id -> send time
  std::unordered_map<std::uint32_t, hot_actor> hot;
  level runnable, parked, threads;
  causality_builder dag(o.max_dag_nodes);
  const bool full = p.header.level == trace_level::full;

  auto close_spell = [&](std::uint16_t lane, lane_track& t, std::uint64_t now) {
    if (t.state == worker_state::off || t.state == worker_state::other) return;
    auto& w = p.workers[lane];
    if (w[0].empty())
      for (auto& v : w) v.assign(p.bins, 0.f);
    const unsigned which = t.state == worker_state::running ? 0 : t.state == worker_state::idle ? 1 : 2;
    spread(w[which], p.bin_ns, t.since, now, 1.0);
    if (!p.spells_complete || now <= t.since) return;
    if (p.spells.size() >= o.max_segments) {
      p.spells_complete = false;
      p.spells_until_ns = t.since;
      return;
    }
    p.spells.push_back({t.since, now, t.actor, lane, t.state});
  };
  auto move_to = [&](std::uint16_t lane, lane_track& t, worker_state s, std::uint64_t now) {
    if (t.state == s) return;
    close_spell(lane, t, now);
    t.state = s;
    t.since = now;
  };

  traces::merged_cursor cur(r);
  std::uint64_t now = 0;
  while (const trace_event* ep = cur.next()) {
    trace_event e = *ep;
    e.time_ns = now = traces::since_run_start(e.time_ns, p.start_ns);
    ++p.totals[unsigned(e.kind) & 15];
    p.comm.add(e);
    if (full) dag.add(e);
    const std::size_t bin = std::min<std::size_t>(now / p.bin_ns, p.bins - 1);
    if (e.worker != traces::outside_lane) {
      lane_track& t = track[e.worker];
      // an idle spell lasts until the worker's next event other than park/unpark/idle
      if ((t.state == worker_state::idle || t.state == worker_state::parked) && e.kind != event_kind::park &&
          e.kind != event_kind::unpark && e.kind != event_kind::idle)
        move_to(e.worker, t, worker_state::other, now);
      switch (e.kind) {
        case event_kind::worker_start:
          move_to(e.worker, t, worker_state::other, now);
          threads.set(p.threads, p.bin_ns, now, threads.value + 1);
          break;
        case event_kind::worker_stop:
          move_to(e.worker, t, worker_state::off, now);
          threads.set(p.threads, p.bin_ns, now, threads.value - 1);
          break;
        case event_kind::run_begin:
          move_to(e.worker, t, worker_state::running, now);
          t.actor = e.actor;
          t.turn_begin = now;
          t.turn_off = 0;
          runnable.set(p.runnable, p.bin_ns, now, runnable.value - 1);
          break;
        case event_kind::run_end: {
          hot_actor& h = hot[t.actor];
          h.actor = t.actor;
          h.messages += e.other;
          const std::uint64_t wall = now - std::min(now, t.turn_begin);
          h.turn_ns += wall - std::min(wall, t.turn_off);
          ++h.turns;
          p.throughput[bin] += float(e.other);
          move_to(e.worker, t, worker_state::other, now);
          break;
        }
        case event_kind::message_end:
          t.turn_off += e.other;  // time off a CPU in the handling (traces/format.hpp)
          break;
        case event_kind::idle:
          move_to(e.worker, t, worker_state::idle, now);
          break;
        case event_kind::park:
          move_to(e.worker, t, worker_state::parked, now);
          parked.set(p.parked, p.bin_ns, now, parked.value + 1);
          break;
        case event_kind::unpark:
          move_to(e.worker, t, worker_state::idle, now);
          parked.set(p.parked, p.bin_ns, now, parked.value - 1);
          break;
        default:
          break;
      }
    }
    switch (e.kind) {
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
  }
  for (auto& [lane, t] : track) move_to(lane, t, worker_state::off, now);
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
