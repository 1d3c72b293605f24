// Hand-built full-level traces whose critical paths are known: a chain, independent actors, pi's master and workers.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "traces/footer.hpp"
#include "traces/format.hpp"
#include "traces/trace_writer.hpp"
#include "traces_test_support.hpp"

namespace twinsched::test {

/// Collects events per lane, then writes them as a trace with a footer saying `makespan_ns`.
class trace_builder {
 public:
  explicit trace_builder(std::uint32_t workers) : workers_(workers) {}
  /// A send from the workload's start (outside any worker).
  void start_send(std::uint64_t t, std::uint32_t to, std::uint64_t msg) {
    lanes_[traces::outside_lane].push_back(ev(event_kind::send, t, traces::outside_lane, to, msg, 0));
  }
  /// One turn of `actor` on `lane` handling `msg` over [t, t + ns]; `sends`: (offset, receiver, id);
  /// `off_cpu`: ns of it its worker was off a CPU (a real run's message_end says so).
  void handle(std::uint16_t lane, std::uint64_t t, std::uint64_t ns, std::uint32_t actor, std::uint64_t msg,
              const std::vector<std::array<std::uint64_t, 3>>& sends = {}, std::uint32_t off_cpu = 0) {
    auto& v = lanes_[lane];
    v.push_back(ev(event_kind::run_begin, t, lane, actor, 0, 0xffffffff));
    v.push_back(ev(event_kind::message_begin, t, lane, actor, msg, 0));
    for (const auto& s : sends) v.push_back(ev(event_kind::send, t + s[0], lane, std::uint32_t(s[1]), s[2], 0));
    v.push_back(ev(event_kind::message_end, t + ns, lane, actor, msg, off_cpu));
    v.push_back(ev(event_kind::run_end, t + ns, lane, actor, 0, 1));
    ++messages_;
  }
  void group(std::uint32_t actor, std::uint32_t g) { groups_[actor] = g; }
  void write(const std::string& path, std::uint64_t makespan_ns, trace_level level = trace_level::full) {
    traces::trace_header h = synthetic_header("sim");
    h.workers = workers_;
    h.lanes = workers_;
    h.sim_cores = workers_;
    h.level = level;
    traces::trace_writer w(path, h);
    for (auto& [lane, v] : lanes_) {
      std::vector<trace_event> kept;
      for (const auto& e : v)
        if (recorded_at(e.kind, level)) kept.push_back(e);
      std::stable_sort(kept.begin(), kept.end(), [](const trace_event& a, const trace_event& b) { return a.time_ns < b.time_ns; });
      if (!kept.empty()) w.write_events(lane, kept);
    }
    traces::trace_footer f;
    f.messages = f.expected_messages = messages_;
    f.wall_ns = makespan_ns;
    f.has_actors = true;
    for (auto [a, g] : groups_) f.actors.push_back({a, g, 1, 0});
    w.finish(f);
  }

 private:
  std::uint32_t workers_;
  std::map<std::uint16_t, std::vector<trace_event>> lanes_;
  std::map<std::uint32_t, std::uint32_t> groups_;
  std::uint64_t messages_ = 0;
};

/// A chain: the start sends to actor 1; actor k handles for `ns` and, at the end, sends to
/// actor k + 1; n handlings alternate between two workers. Span = work = n * ns.
inline void chain_trace(const std::string& path, unsigned n, std::uint64_t ns) {
  trace_builder b(2);
  b.start_send(0, 1, 1);
  for (unsigned k = 1; k <= n; ++k) {
    const std::uint64_t t = 10 + (k - 1) * (ns + 5);
    if (k < n)
      b.handle(std::uint16_t(k % 2), t, ns, k, k, {{ns, k + 1, k + 1}});
    else
      b.handle(std::uint16_t(k % 2), t, ns, k, k);
  }
  b.write(path, 10 + n * (ns + 5));
}

/// n actors, each sent one message by the start, none sending: span = ns, parallelism n.
inline void independent_trace(const std::string& path, unsigned n, std::uint64_t ns) {
  trace_builder b(4);
  for (unsigned k = 1; k <= n; ++k) b.start_send(0, k, k);
  std::uint64_t free[4] = {5, 5, 5, 5};
  for (unsigned k = 1; k <= n; ++k) {
    const unsigned lane = k % 4;
    b.handle(std::uint16_t(lane), free[lane], ns, k, k);
    free[lane] += ns + 1;
  }
  b.write(path, *std::max_element(free, free + 4));
}

/// pi's shape: master (actor 1) handles the start's message over [0, 10] and sends a job to
/// each of 4 workers (actors 2..5, group 1) at 1, 2, 3, 4 ns into it; each worker handles its
/// job for 100 ns on a worker of its own and replies at the end; the master handles the 4
/// replies for 2 ns each, in order. Earliest starts: job i at i, reply j at max(j + 100, the
/// master's previous end): 101, 103, 105, 107; span 109 over the path master, job 1, 4 replies.
inline void pi_trace(const std::string& path) {
  trace_builder b(5);
  b.start_send(0, 1, 1);
  b.handle(0, 0, 10, 1, 1, {{1, 2, 2}, {2, 3, 3}, {3, 4, 4}, {4, 5, 5}});
  for (unsigned i = 1; i <= 4; ++i) {
    b.group(1 + i, 1);
    b.handle(std::uint16_t(i), 20, 100, 1 + i, 1 + i, {{100, 1, 10 + i}});
  }
  for (unsigned j = 1; j <= 4; ++j) b.handle(0, 130 + 2 * (j - 1), 2, 1, 10 + j);
  b.write(path, 140);
}

}  // namespace twinsched::test
