// twinsched-bench: throughput of each policy on the standard workloads (median of N runs) and memory per idle actor.
//
// Before any timing, main calibrates the burn loop (bench/warm_up.hpp); every measured cell, the
// sequential reference included, runs once untimed before its N measured runs; a row's worker
// counts take turns run by run (bench::alternated below), since this host's slow spells last
// minutes and would otherwise fall on one column. The idle-actor
// probe runs once, in a fresh child process: its peak-RSS growth is the quantity, not a time.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "models/config.hpp"
#include "runtime/run_threads.hpp"
#include "bench/median.hpp"
#include "bench/warm_up.hpp"

using namespace twinsched;

namespace {

struct row {
  std::string label, workload;
  std::map<std::string, param_value> params;
  std::uint32_t burst = 0;  ///< 0: the scheduler's default
  bool async_mode = false;  ///< stealing only: owner FIFO and steal half (ForkJoinPool asyncMode)
};

using bench::median;

std::unique_ptr<workload> make(const row& r, std::uint64_t seed) {
  const workload_info& info = *find_workload(r.workload);
  return info.make(with_defaults(info, r.params), seed);
}

/// Messages per second of the same routing computed by a plain loop, no scheduler.
double sequential_rate(const row& r, int runs) {
  std::vector<double> v;
  bench::warm_up_then_measure(runs, [&](bool timed) {
    auto w = make(r, 42);
    auto t0 = std::chrono::steady_clock::now();
    volatile std::uint64_t sink = w->reference_checksum();
    (void)sink;
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (timed) v.push_back(double(w->expected_messages()) / s);
  });
  return median(v);
}

/// One run of `r` under `c`: messages per second (ok turns false if it failed its checksum).
double scheduled_run(const row& r, const scheduler_config& c, bool& ok) {
  auto w = make(r, 42);
  run_result res = run_on_threads(c, *w, 42);
  ok = ok && res.ok();  // a warm-up's verdict counts too
  return res.msgs_per_s();
}

/// `once(i)` for every column i, in rounds in which the columns take turns (an untimed warm-up
/// round, then `runs` measured ones), so that the host's slow spells (minutes long here) fall
/// on every column alike. Returns each column's rates, round by round.
template <class Once>
std::vector<std::vector<double>> alternated(std::size_t columns, int runs, Once&& once) {
  std::vector<std::vector<double>> v(columns);
  bench::warm_up_then_measure(runs, [&](bool timed) {
    for (std::size_t i = 0; i < columns; ++i) {
      const double rate = once(i);
      if (timed) v[i].push_back(rate);
    }
  });
  return v;
}

/// Column i's speed-up over column `base`: the median of the per-round ratios (each round's
/// runs are minutes closer in time than the columns' medians).
double paired_speedup(const std::vector<std::vector<double>>& v, std::size_t i, std::size_t base) {
  std::vector<double> q;
  for (std::size_t k = 0; k < v[i].size(); ++k) q.push_back(v[i][k] / v[base][k]);
  return median(q);
}

/// pi's jobs on `threads` bare threads that take the next job from a counter (no actors, no
/// messages): the speed-up the machine allows this work, for the pi rows to be read against.
double bare_threads_rate(const row& r, unsigned threads) {
  const workload_info& info = *find_workload(r.workload);
  const workload_params p = with_defaults(info, r.params);
  const std::uint64_t jobs = std::uint64_t(p.integer("jobs")), terms = std::uint64_t(p.integer("terms"));
  const auto& kernel = info.kernels.at(0).run;  // one job of `terms` terms
  std::atomic<std::uint64_t> next{0}, sink{0};
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::uint64_t j; (j = next.fetch_add(1, std::memory_order_relaxed)) < jobs;)
        sink.fetch_add(kernel(terms), std::memory_order_relaxed);
    });
  for (auto& t : pool) t.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return double(2 * jobs + 1) / s;  // counted like the workload: jobs, replies and the start
}

/// Spawns `n` idle actors in a child process; reports peak-RSS growth per actor and spawn time.
struct idle_actor_probe final : workload {
  struct nothing final : behavior {
    void receive(context&, const message&) override {}
  };
  std::uint64_t n;
  double spawn_s = 0;
  long rss_before_kib = 0, rss_after_kib = 0;
  explicit idle_actor_probe(std::uint64_t count) : n(count) {}
  static long peak_kib() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
  }
  void start(context& ctx) override {
    rss_before_kib = peak_kib();
    auto t0 = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < n; ++i) ctx.spawn_as<nothing>({});
    spawn_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rss_after_kib = peak_kib();
  }
  std::uint64_t checksum() const override { return 0; }
  std::uint64_t reference_checksum() const override { return 0; }
  std::uint64_t expected_messages() const override { return 0; }
};

void idle_actor_memory(std::uint64_t n) {
  std::fflush(stdout);
  int fd[2];
  if (pipe(fd) != 0) return;
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    idle_actor_probe p(n);
    scheduler_config c;
    c.workers = 1;
    run_on_threads(c, p, 1);
    char buf[160];
    int len = std::snprintf(buf, sizeof buf, "%.1f %.3f\n", double(p.rss_after_kib - p.rss_before_kib) * 1024.0 / double(n), p.spawn_s);
    if (write(fd[1], buf, std::size_t(len)) != len) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  char buf[160] = {};
  ssize_t got = read(fd[0], buf, sizeof buf - 1);
  close(fd[0]);
  waitpid(pid, nullptr, 0);
  double bytes = 0, secs = 0;
  if (got > 0 && std::sscanf(buf, "%lf %lf", &bytes, &secs) == 2)
    std::printf("idle actors: %llu spawned in %.3f s (%.0f ns each), peak RSS growth %.1f bytes per actor\n",
                (unsigned long long)n, secs, secs * 1e9 / double(n), bytes);
}

}  // namespace

int main(int argc, char** argv) {
  const double loops_per_us = bench::calibrate_burn_loop();  // before any timed run
  CLI::App app{"twinsched-bench: median msgs/s per policy and worker count on the standard workloads,\n"
               "next to the sequential reference (the same routing in a plain loop, no scheduler); for pi,\n"
               "also its jobs on bare threads in the same rounds (the speed-up the machine allows)."};
  app.footer(bench::warm_up_note);
  int runs = 5;
  std::vector<std::string> policies = policy_names();
  std::vector<unsigned> workers{1, 2};
  std::string idle = "backoff";
  std::uint64_t idle_actors = 1'000'000;
  bool quick = false;
  std::vector<std::string> only;
  app.add_option("--runs", runs, "measured runs per cell, after one untimed warm-up; the median is shown")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--policies", policies, "policies to compare (space or comma separated)")->delimiter(',')->capture_default_str();
  app.add_option("--workers", workers, "worker counts")->delimiter(',')->capture_default_str();
  app.add_option("--idle", idle, "idle strategy for every run")->capture_default_str();
  app.add_option("--idle-actors", idle_actors, "idle actors for the memory probe (0: skip)")->capture_default_str();
  app.add_flag("--quick", quick, "smaller workloads (smoke test of the benchmark itself)");
  app.add_option("--workloads", only, "only these workloads' rows (forward, pingpong, pi)")->delimiter(',');
  CLI11_PARSE(app, argc, argv);

  std::int64_t scale = quick ? 10 : 1;
  const std::map<std::string, param_value> pi_jobs{{"jobs", std::int64_t(100)},
                                                   {"terms", std::int64_t(1'000'000 / scale)}};
  std::vector<row> rows{
      {"forward 1000a/200t/10000h", "forward", {{"actors", std::int64_t(1000)}, {"tokens", std::int64_t(200)}, {"hops", std::int64_t(10000 / scale)}}},
      {"pingpong 1 pair x 1M", "pingpong", {{"pairs", std::int64_t(1)}, {"bounces", std::int64_t(1'000'000 / scale)}}},
      {"pingpong 8 pairs x 200k", "pingpong", {{"pairs", std::int64_t(8)}, {"bounces", std::int64_t(200'000 / scale)}}},
      {"pi 100 jobs x 1M terms", "pi", pi_jobs},
      // One job per turn: with the default burst a turn takes all of an actor's ~12 queued
      // jobs (~19 ms), so the 8 actors split 52/48 jobs over 2 workers at best (1.92x).
      {"pi, burst 1", "pi", pi_jobs, 1},
      // Still 52/48 with stealing: the owner works through its newest actor's jobs, the thief
      // through the oldest's, each actor to its end. In asyncMode (ForkJoinPool's setting for
      // event-style tasks) the owner rotates its actors a job at a time and a thief takes half
      // a deque, so every actor's jobs run down together and the last ones are split.
      {"pi, burst 1, asyncMode", "pi", pi_jobs, 1, true},
  };

  std::printf("median of %d runs per cell (after 1 warm-up; a row's worker counts take turns, run by run), idle "
              "strategy %s, burn loop %.0f loops/us; Mmsgs/s, except pi: milliseconds and [speed-up over the first "
              "worker count, the median of the rounds' ratios], then the same jobs on bare threads that take them "
              "from a counter (no actors, no messages: the machine's ceiling), in the same rounds\n",
              runs, idle.c_str(), loops_per_us);
  std::printf("%-26s %-13s %10s", "workload", "policy", "sequential");
  for (unsigned w : workers) std::printf(" %9uw", w);
  std::printf("\n");
  bool all_ok = true;
  for (const row& r : rows) {
    if (!only.empty() && std::find(only.begin(), only.end(), r.workload) == only.end()) continue;
    const bool pi = r.workload == "pi";
    const double msgs = double(make(r, 42)->expected_messages());
    double seq = sequential_rate(r, runs);
    for (const std::string& p : policies) {
      if (p == "donation" && !make(r, 42)->has_groups()) continue;  // needs groups of equals
      if (r.async_mode && p != "stealing") continue;  // a stealing setting
      std::vector<scheduler_config> cs;
      for (unsigned w : workers) {
        scheduler_config c;
        c.policy = p;
        c.workers = w;
        c.idle.strategy = idle;
        if (r.burst) c.burst = r.burst;
        if (r.async_mode) c.fifo = true, c.steal = "half";
        cs.push_back(c);
      }
      // columns: the scheduler on each worker count, then (pi) bare threads on each
      const std::size_t n = cs.size();
      const auto v = alternated(pi ? 2 * n : n, runs, [&](std::size_t i) {
        return i < n ? scheduled_run(r, cs[i], all_ok) : bare_threads_rate(r, workers[i - n]);
      });
      std::printf("%-26s %-13s %10.2f", r.label.c_str(), p.c_str(), pi ? msgs / seq * 1e3 : seq / 1e6);
      for (std::size_t i = 0; i < n; ++i) {
        if (pi) std::printf(" %6.1f[%.2fx]", msgs / median(v[i]) * 1e3, paired_speedup(v, i, 0));
        else std::printf(" %10.2f", median(v[i]) / 1e6);
      }
      if (pi) {
        std::printf("   bare threads");
        for (std::size_t i = n; i < 2 * n; ++i)
          std::printf(" %6.1f[%.2fx]", msgs / median(v[i]) * 1e3, paired_speedup(v, i, n));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  if (idle_actors) idle_actor_memory(idle_actors);
  if (!all_ok) {
    std::printf("some run FAILED its checksum\n");
    return 1;
  }
  return 0;
}
