// The latency-CPU frontier's runs, medians and Pareto front.
#include "frontier.hpp"

#include <algorithm>
#include <utility>

#include "runtime/run_threads.hpp"
#include "twin/accuracy_summary.hpp"  // median

namespace twinsched::twin {

std::vector<frontier_cell> run_frontier(const scenario& base, const frontier_options& o,
                                        const std::function<void(const frontier_cell&, unsigned)>& each) {
  std::vector<frontier_cell> cells;
  for (const auto& p : o.policies)
    for (const auto& i : o.idles) {
      frontier_cell c;
      c.policy = p;
      c.idle = i;
      cells.push_back(std::move(c));
    }
  const unsigned rounds = o.simulate ? 1 : std::max(1u, o.runs);
  for (unsigned round = 0; round < rounds; ++round) {
    for (auto& c : cells) {
      if (!c.error.empty()) continue;
      scenario s = base;
      s.sched.policy = c.policy;
      s.sched.idle.strategy = c.idle;
      try {
        validate(s);
        c.runs.push_back(o.simulate ? simulate(s, o.sim).run : run_on_threads(s));
      } catch (const config_error& e) {
        c.error = e.what();
      }
      if (each) each(c, round);
    }
  }
  summarize_frontier(cells);
  return cells;
}

void summarize_frontier(std::vector<frontier_cell>& cells) {
  for (auto& c : cells) {
    if (c.runs.empty()) continue;
    std::vector<double> p50, p99, p999, cpu, share;
    for (const auto& r : c.runs) {
      p50.push_back(double(r.request_latency.p50_ns));
      p99.push_back(double(r.request_latency.p99_ns));
      p999.push_back(double(r.request_latency.p999_ns));
      cpu.push_back(r.cpu_per_message_ns());
      share.push_back(r.cpu_share());
      c.ok = c.ok && r.ok();
    }
    c.p50_ns = median(p50);
    c.p99_ns = median(p99);
    c.p999_ns = median(p999);
    c.cpu_per_request_ns = median(cpu);
    c.cpu_share = median(share);
    c.p99_low_ns = *std::min_element(p99.begin(), p99.end());
    c.p99_high_ns = *std::max_element(p99.begin(), p99.end());
    c.cpu_low_ns = *std::min_element(cpu.begin(), cpu.end());
    c.cpu_high_ns = *std::max_element(cpu.begin(), cpu.end());
  }
  auto usable = [](const frontier_cell& c) { return c.error.empty() && !c.runs.empty() && c.ok; };
  for (auto& c : cells) {
    c.on_front = usable(c);
    for (const auto& d : cells) {
      if (&d == &c || !usable(d) || !c.on_front) continue;
      const bool no_worse = d.p99_ns <= c.p99_ns && d.cpu_per_request_ns <= c.cpu_per_request_ns;
      const bool better = d.p99_ns < c.p99_ns || d.cpu_per_request_ns < c.cpu_per_request_ns;
      if (no_worse && better) c.on_front = false;  // d dominates c
    }
  }
}

}  // namespace twinsched::twin
