// twinsched-policies-bench: each policy on the workloads that show what it is for (median of N runs, 1 and 2 workers), with a verdict per expectation.
//
// skewed       stealing and sharing within 10% of total work / workers; distribution not
// fanout-idle  shared-queue does not scale from 1 to 2 workers; distribution and sharing do
// pool         donation finishes sooner than stealing
// burst        adaptive starts threads during the burst and retires them after it
//
// The machine may be shared: each row shows the spread of its runs (max/min) and `cores`,
// the CPU time the process got per second of wall time (a compute-bound 2-worker row that
// got well under 2 shared its cores with other work), and the run prints the load average
// before and after, so contaminated numbers can be told apart.
//
// Before any timing, main calibrates the burn loop (bench/warm_up.hpp), and every cell runs
// once untimed (a warm-up, whose verdict still counts) before its measured runs.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
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

struct measured {
  double wall = 0, lo = 0, hi = 0;  // median, min, max of wall seconds
  double cores = 0;                 // process CPU seconds / wall seconds over all runs
  int contended = 0;                // runs started while the two cores were not free
  double msgs_per_s = 0;
  bool ok = true;
  double donations = 0, migrations = 0, steals = 0;
  double peak = 0, final_workers = 0, scale_up_s = 0, first_start_s = 0;
  std::uint64_t messages = 0;
};

using bench::median;

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

/// Share of two cores a pair of spinning threads gets for 20 ms (1.0: both cores free).
double two_core_availability() {
  std::atomic<bool> stop{false};
  auto spin = [&] {
    volatile std::uint64_t x = 0;
    while (!stop.load(std::memory_order_relaxed)) x = x + 1;
  };
  double c0 = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  std::thread a(spin), b(spin);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  stop = true;
  a.join();
  b.join();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return (cpu_seconds() - c0) / (2 * wall);
}

int quiet_wait_s = 20;  // --quiet-wait

/// Waits (up to quiet_wait_s) until both cores are free; false if they never were.
bool wait_for_quiet() {
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(quiet_wait_s);
  do {
    if (two_core_availability() >= 0.9) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

double load_average() {
  double l[1] = {0};
  return getloadavg(l, 1) == 1 ? l[0] : -1;
}

measured measure(const std::string& wl, const std::map<std::string, param_value>& params, scheduler_config c, int runs) {
  const workload_info& info = *find_workload(wl);
  std::vector<double> wall, rate, don, mig, st, peak, fin, up, first;
  measured m;
  double cpu = 0, walls = 0;
  bench::warm_up_then_measure(runs, [&](bool timed) {
    auto w = info.make(with_defaults(info, params), 42);
    if (!timed) {
      m.ok = m.ok && run_on_threads(c, *w, 42).ok();
      return;
    }
    if (!wait_for_quiet()) ++m.contended;
    double c0 = cpu_seconds();
    run_result r = run_on_threads(c, *w, 42);
    cpu += cpu_seconds() - c0;
    walls += r.wall_s;
    m.ok = m.ok && r.ok();
    m.messages = r.messages;
    wall.push_back(r.wall_s);
    rate.push_back(r.msgs_per_s());
    double d = 0, g = 0, s = 0;
    for (auto& ws : r.per_worker) d += double(ws.donations), g += double(ws.migrations), s += double(ws.steals);
    don.push_back(d), mig.push_back(g), st.push_back(s);
    peak.push_back(r.peak_workers), fin.push_back(r.final_workers), up.push_back(r.scale_up_s);
    double f = 0;
    for (std::size_t k = 1; k < r.thread_timeline.size(); ++k)
      if (r.thread_timeline[k].second > r.thread_timeline[k - 1].second) {
        f = r.thread_timeline[k].first;
        break;
      }
    first.push_back(f);
  });
  m.wall = median(wall);
  m.cores = walls > 0 ? cpu / walls : 0;
  m.lo = *std::min_element(wall.begin(), wall.end());
  m.hi = *std::max_element(wall.begin(), wall.end());
  m.msgs_per_s = median(rate);
  m.donations = median(don), m.migrations = median(mig), m.steals = median(st);
  m.peak = median(peak), m.final_workers = median(fin), m.scale_up_s = median(up), m.first_start_s = median(first);
  return m;
}

scheduler_config config(const std::string& policy, unsigned workers) {
  scheduler_config c;
  c.policy = policy;
  c.workers = workers;
  return c;
}

void note_contended(const measured& m) {
  if (m.contended) std::printf("%-13s    ^ %d of its runs started while other work held a core\n", "", m.contended);
}

void header(const char* title) {
  std::printf("\n## %s\n%-13s %2s %10s %9s %7s %6s %11s %9s %9s %9s  %s\n", title, "policy", "w", "wall ms", "Mmsg/s",
              "spread", "cores", "vs ideal", "steals", "migr", "donat", "ok");
}

void row(const std::string& policy, unsigned w, const measured& m, double ideal_s) {
  char vs[32] = "-";
  if (ideal_s > 0) std::snprintf(vs, sizeof vs, "%+.1f%%", 100.0 * (m.wall / ideal_s - 1));
  std::printf("%-13s %2u %10.2f %9.3f %6.2fx %6.2f %11s %9.0f %9.0f %9.0f  %s%s\n", policy.c_str(), w, m.wall * 1e3,
              m.msgs_per_s / 1e6, m.hi / m.lo, m.cores, vs, m.steals, m.migrations, m.donations, m.ok ? "ok" : "FAILED",
              m.hi / m.lo > 1.3 ? "  (noisy)" : "");
  note_contended(m);
}

}  // namespace

int main(int argc, char** argv) {
  const double loops_per_us = bench::calibrate_burn_loop();  // before any timed run
  CLI::App app{"twinsched-policies-bench: the four balancing policies on their workloads"};
  app.footer(bench::warm_up_note);
  int runs = 5;
  std::string only;
  app.add_option("--runs", runs, "measured runs per cell, after one untimed warm-up (median reported)")
      ->check(CLI::PositiveNumber);
  app.add_option("--only", only, "one workload: skewed | fanout-idle | pool | burst");
  app.add_option("--quiet-wait", quiet_wait_s, "seconds to wait for two free cores before each run");
  CLI11_PARSE(app, argc, argv);

  std::printf("# policies bench: median of %d runs (after 1 warm-up); burn loop %.0f loops/us; load average "
              "before: %.2f\n",
              runs, loops_per_us, load_average());
  const std::vector<unsigned> workers = {1, 2};
  std::vector<std::string> verdicts;
  bool all_ok = true;

  if (only.empty() || only == "skewed") {
    const std::map<std::string, param_value> p = {{"actors", std::int64_t(1000)}, {"messages", std::int64_t(100000)},
                                                  {"cost_ns", std::int64_t(2000)}};
    const double work_s = 100000 * 2000e-9;
    header("skewed: 1000 actors, 10% hot with 90% of 100000 messages of 2 us; ideal = work / workers");
    std::map<std::string, double> at2;
    for (const char* pol : {"shared-queue", "distribution", "sharing", "stealing", "adaptive"})
      for (unsigned w : workers) {
        measured m = measure("skewed", p, config(pol, w), runs);
        all_ok &= m.ok;
        row(pol, w, m, work_s / w);
        if (w == 2) at2[pol] = m.wall / (work_s / 2) - 1;
      }
    char b[256];
    std::snprintf(b, sizeof b, "skewed at 2 workers, over ideal: stealing %+.1f%%, sharing %+.1f%%, distribution %+.1f%%",
                  100 * at2["stealing"], 100 * at2["sharing"], 100 * at2["distribution"]);
    verdicts.push_back(std::string(b) + (at2["stealing"] <= 0.10 && at2["sharing"] <= 0.10 && at2["distribution"] > 0.10
                                             ? "  -> as expected"
                                             : "  -> NOT as expected"));
  }

  if (only.empty() || only == "fanout-idle") {
    const std::map<std::string, param_value> p = {{"actors", std::int64_t(100000)}, {"producers", std::int64_t(4)},
                                                  {"messages", std::int64_t(400000)}};
    header("fanout-idle: 4 producers, 400000 messages to 100000 idle actors, no work per message");
    std::map<std::string, std::map<unsigned, double>> rate;
    for (const char* pol : {"shared-queue", "distribution", "sharing", "stealing", "adaptive"})
      for (unsigned w : workers) {
        measured m = measure("fanout-idle", p, config(pol, w), runs);
        all_ok &= m.ok;
        row(pol, w, m, 0);
        rate[pol][w] = m.msgs_per_s;
      }
    auto gain = [&](const char* pol) { return rate[pol][2] / rate[pol][1]; };
    char b[256];
    std::snprintf(b, sizeof b,
                  "fanout-idle 2 vs 1 worker throughput: shared-queue x%.2f, distribution x%.2f, sharing x%.2f; "
                  "at 2 workers distribution/shared-queue x%.2f",
                  gain("shared-queue"), gain("distribution"), gain("sharing"),
                  rate["distribution"][2] / rate["shared-queue"][2]);
    bool expected = gain("shared-queue") < gain("distribution") && gain("shared-queue") < gain("sharing") &&
                    rate["distribution"][2] > rate["shared-queue"][2];
    verdicts.push_back(std::string(b) + (expected ? "  -> as expected" : "  -> NOT as expected"));
  }

  if (only.empty() || only == "pool") {
    const std::map<std::string, param_value> p = {};  // defaults: 8 members, 20 bursts of 2000, 2 us, one 10x slow
    header("pool: 20 bursts of 2000 jobs, 8 equal members, one 10x slower (20 us vs 2 us)");
    std::map<std::string, std::map<unsigned, double>> wall;
    for (const char* pol : {"shared-queue", "distribution", "sharing", "stealing", "donation", "adaptive"})
      for (unsigned w : workers) {
        measured m = measure("pool", p, config(pol, w), runs);
        all_ok &= m.ok;
        row(pol, w, m, 0);
        wall[pol][w] = m.wall;
      }
    char b[256];
    std::snprintf(b, sizeof b, "pool wall: donation %.1f / %.1f ms vs stealing %.1f / %.1f ms (1 / 2 workers)",
                  wall["donation"][1] * 1e3, wall["donation"][2] * 1e3, wall["stealing"][1] * 1e3,
                  wall["stealing"][2] * 1e3);
    bool expected = wall["donation"][1] < wall["stealing"][1] && wall["donation"][2] < wall["stealing"][2];
    verdicts.push_back(std::string(b) + (expected ? "  -> as expected" : "  -> NOT as expected"));
  }

  if (only.empty() || only == "burst") {
    const std::map<std::string, param_value> p = {};  // defaults: 10 ms trickle, 100 ms burst over 64 actors, 10 ms
    std::printf("\n## burst: 5000 x 2 us trickle, 20000 x 5 us burst over 64 actors, 5000 x 2 us trickle\n");
    std::printf("%-13s %8s %10s %7s %6s %6s %6s %12s %12s %9s  %s\n", "policy", "threads", "wall ms", "spread", "cores",
                "peak", "final", "1st start ms", "scale-up ms", "migr", "ok");
    std::string verdict;
    for (unsigned max_w : {1u, 2u, 4u}) {
      scheduler_config c = config("adaptive", 1);
      c.max_workers = max_w;
      c.idle.strategy = "park";
      measured m = measure("burst", p, c, runs);
      all_ok &= m.ok;
      char label[32];
      std::snprintf(label, sizeof label, "1..%u", max_w);
      std::printf("%-13s %8s %10.2f %6.2fx %6.2f %6.0f %6.0f %12.2f %12.2f %9.0f  %s%s\n", "adaptive", label,
                  m.wall * 1e3, m.hi / m.lo, m.cores, m.peak, m.final_workers, m.first_start_s * 1e3, m.scale_up_s * 1e3, m.migrations,
                  m.ok ? "ok" : "FAILED", m.hi / m.lo > 1.3 ? "  (noisy)" : "");
      note_contended(m);
      if (max_w == 4) {
        char b[256];
        std::snprintf(b, sizeof b,
                      "burst with adaptive 1..4: peak %.0f threads, final %.0f, first start at %.1f ms, peak reached "
                      "%.1f ms later",
                      m.peak, m.final_workers, m.first_start_s * 1e3, m.scale_up_s * 1e3);
        verdict = std::string(b) + (m.peak > 1 && m.final_workers < m.peak ? "  -> as expected" : "  -> NOT as expected");
      }
    }
    for (unsigned w : workers) {
      scheduler_config c = config("stealing", w);
      c.idle.strategy = "park";
      measured m = measure("burst", p, c, runs);
      all_ok &= m.ok;
      char label[32];
      std::snprintf(label, sizeof label, "%u", w);
      std::printf("%-13s %8s %10.2f %6.2fx %6.2f %6.0f %6.0f %12s %12s %9s  %s\n", "stealing", label, m.wall * 1e3,
                  m.hi / m.lo, m.cores, m.peak, m.final_workers, "-", "-", "-", m.ok ? "ok" : "FAILED");
      note_contended(m);
    }
    verdicts.push_back(verdict);
  }

  std::printf("\n# load average after: %.2f (2 cores: above ~1 means other work shared the cores)\n", load_average());
  std::printf("\n# verdicts\n");
  for (auto& v : verdicts) std::printf("- %s\n", v.c_str());
  return all_ok ? 0 : 1;
}
