// twinsched-trace-bench: what tracing costs: throughput of `forward` untraced, at decisions and at full level (median
// of N), and bytes per event: on disk, and held in memory by the lanes while the run records (traces/lane_codec.hpp).
//
// Before any timing, main calibrates the burn loop (bench/warm_up.hpp), and one untimed round
// runs every level once (a warm-up) before the N measured, interleaved rounds. It ends with the
// host's line transfer before each round and after the last (twin/calibrate.hpp's probe): on a
// VM whose host moves its CPUs apart now and then, that says which state each round ran in.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "runtime/run_threads.hpp"
#include "twin/calibrate.hpp"
#include "traces/recorder.hpp"
#include "traces/trace_reader.hpp"
#include "bench/median.hpp"
#include "bench/warm_up.hpp"

using namespace twinsched;

namespace {

using bench::median;

struct level_result {
  std::vector<double> rates;
  std::vector<double> bytes_per_event;
  std::vector<double> memory_per_event;  // the lanes' bytes / events
  std::uint64_t events = 0, bytes = 0, stalls = 0, clock_reads = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const double loops_per_us = bench::calibrate_burn_loop();  // before any timed run
  CLI::App app{
      "Measures the cost of tracing: forward's throughput untraced, at the decisions level and at the full "
      "level, median of N interleaved runs, plus trace size per event.",
      "twinsched-trace-bench"};
  int runs = 5;
  unsigned workers = 2;
  std::int64_t actors = 1000, tokens = 200, hops = 100000;
  std::string dir = std::filesystem::temp_directory_path().string();
  std::string policy = "stealing", idle = "backoff";
  app.footer(bench::warm_up_note);
  app.add_option("--runs", runs, "Measured runs per level, after one untimed warm-up round (median reported).")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--workers", workers, "Worker threads.")->capture_default_str();
  app.add_option("--actors", actors, "forward: actors.")->capture_default_str();
  app.add_option("--tokens", tokens, "forward: tokens.")->capture_default_str();
  app.add_option("--hops", hops, "forward: hops per token.")->capture_default_str();
  app.add_option("--policy", policy, "Scheduling policy.")->capture_default_str();
  app.add_option("--idle", idle, "Idle strategy.")->capture_default_str();
  app.add_option("--dir", dir,
                 "Where traces are written (and deleted): a RAM disk measures the recorder, not the disk.")
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  scenario s;
  s.name = "trace-bench";
  s.workload = "forward";
  s.workload_params = {{"actors", actors}, {"tokens", tokens}, {"hops", hops}};
  s.sched.workers = workers;
  s.sched.policy = policy;
  s.sched.idle.strategy = idle;
  const std::string path = dir + "/twinsched-trace-bench-" + std::to_string(::getpid()) + ".tst";

  // "hot path" rows: recorded but never written (recorder_options::discard): the workers' own
  // cost, without the writer thread competing for cores
  const char* names[] = {"off", "decisions", "full", "decisions, hot path only", "full, hot path only"};
  const trace_level levels[] = {trace_level::off, trace_level::decisions, trace_level::full, trace_level::decisions,
                                trace_level::full};
  constexpr int configs = 5;
  level_result res[configs];
  bool ok = true;
  // The host's state around each round: this VM's host runs its two CPUs near (a line transfer
  // ~10 ns) or apart (~65) and flips between them within seconds; a round's levels compare
  // with each other (the overhead is per round), but rounds in different states do not.
  std::vector<double> host_ns;
  bench::warm_up_then_measure(runs, [&](bool timed) {
    if (timed) host_ns.push_back(probe_line_transfer_ns());
    for (int l = 0; l < configs; ++l) {  // interleaved: drift in the machine's speed hits every level alike
      traces::lane_memory mem;
      trace_request t{levels[l] == trace_level::off ? "" : path, levels[l], l >= 3, &mem};
      run_result r = run_on_threads(s, t);
      ok = ok && r.ok();
      if (!timed) {
        std::filesystem::remove(path);
        continue;
      }
      res[l].rates.push_back(r.msgs_per_s());
      if (mem.events) res[l].memory_per_event.push_back(double(mem.bytes) / double(mem.events));  // not when discarded
      if (l >= 3) {
        std::filesystem::remove(path);
      } else if (levels[l] != trace_level::off) {
        traces::trace_reader tr(path);
        res[l].events = tr.events();
        res[l].bytes = tr.file_size();
        res[l].bytes_per_event.push_back(double(tr.file_size()) / double(std::max<std::uint64_t>(tr.events(), 1)));
        res[l].stalls = res[l].clock_reads = 0;
        for (const auto& ln : tr.footer().lanes) res[l].stalls += ln.stalls, res[l].clock_reads += ln.clock_reads;
        std::filesystem::remove(path);
      }
    }
  });
  // Overhead: the median over rounds of each round's own ratio to its untraced run, so
  // that the machine's drift between rounds (it is shared) cancels out.
  auto overhead = [&](int l) {
    std::vector<double> ratios;
    for (int k = 0; k < runs; ++k) ratios.push_back(1.0 - res[l].rates[std::size_t(k)] / res[0].rates[std::size_t(k)]);
    return 100.0 * median(ratios);
  };
  std::printf("forward: %lld actors, %lld tokens, %lld hops, %u workers, %s/%s; median of %d runs (after 1 warm-up "
              "round); burn loop %.0f loops/us; traces in %s\n",
              static_cast<long long>(actors), static_cast<long long>(tokens), static_cast<long long>(hops), workers,
              policy.c_str(), idle.c_str(), runs, loops_per_us, dir.c_str());
  std::printf("%u hardware threads, %u workers; the recorder %s (traces/recorder.hpp)\n",
              std::thread::hardware_concurrency(), workers,
              traces::recorder_options{}.mode == traces::writer_mode::deferred
                  ? "holds each run's events and writes them after it (deferred)"
                  : "writes events while the run goes on (concurrent)");
  std::printf("%-26s %12s %9s %12s %12s %8s %12s %7s %12s\n", "level", "msgs/s", "overhead", "events/run",
              "bytes/event", "MB/run", "clock reads", "stalls", "memory B/ev");
  for (int l = 0; l < configs; ++l) {
    const double m = median(res[l].rates);
    if (l == 0 || l >= 3) {
      if (l == 0)
        std::printf("%-26s %12.0f %9s\n", names[l], m, "-");
      else
        std::printf("%-26s %12.0f %8.1f%%\n", names[l], m, overhead(l));  // discarded: no event count
      continue;
    }
    std::printf("%-26s %12.0f %8.1f%% %12llu %12.2f %8.1f %11.1f%% %7llu %12.2f\n", names[l], m, overhead(l),
                static_cast<unsigned long long>(res[l].events), median(res[l].bytes_per_event),
                double(res[l].bytes) / 1e6,
                res[l].events ? 100.0 * double(res[l].clock_reads) / double(res[l].events) : 0.0,
                static_cast<unsigned long long>(res[l].stalls), median(res[l].memory_per_event));
  }
  std::printf("runs per level (msgs/s):\n");
  for (int l = 0; l < configs; ++l) {
    std::printf("  %-26s", names[l]);
    for (double r : res[l].rates) std::printf(" %12.0f", r);
    std::printf("\n");
  }
  host_ns.push_back(probe_line_transfer_ns());  // after the last round
  std::printf("host: line transfer before each round and after the last (ns):");
  for (double ns : host_ns) std::printf(" %.1f", ns);
  const auto [lo, hi] = std::minmax_element(host_ns.begin(), host_ns.end());
  std::printf("%s\n", *lo > 0 && !same_line_state(*lo, *hi) ? "  (the host changed state during the runs: medians mix two machines)" : "");
  if (!ok) std::printf("a run's verdict FAILED\n");
  return ok ? 0 : 1;
}
