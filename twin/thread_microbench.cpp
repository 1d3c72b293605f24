// Calibration's microbenchmarks on real threads: the core and its atomics, transfers between two
// pinned cores, the lock hand-off, parking, the burn loop, and the workloads' compute kernels.
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "models/workload/workload.hpp"
#include "runtime/thread_platform.hpp"
#include "twin/batch_stats.hpp"
#include "twin/calibration_steps.hpp"
#include "twin/host_probes.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace twinsched::calib {
namespace {

/// Strict alternation of two pinned threads on a turn flag, with and without taking a
/// std::mutex each turn: per pair of neighbouring batches, what the lock added to a hand-off.
/// The flag's own trip is not the lock's: subtracting a dependent load's line transfer for it
/// instead left the spinner's exit in the term. Batches with and without the lock alternate in
/// one run, and the term is the median of the differences of neighbouring batches: the two
/// sides see the same host. The least of three runs of each side, minutes of host drift
/// between them, gave results far apart in one host state.
std::vector<double> lock_handoff_adds(int pair_batches) {
  std::mutex mx;
  line turn;
  constexpr int rounds = 25;  // per batch
  auto side = [&](std::uint64_t mine) {
    return [&, mine](int i) {
      while (turn.v.load(std::memory_order_acquire) != mine) {
      }
      if ((i / rounds) % 2 == 1) {  // odd batches take the lock, before the flag moves: never contended
        mx.lock();
        mx.unlock();
      }
      turn.v.store(1 - mine, std::memory_order_release);
    };
  };
  // each batch's time per hand-off (a round is two); element j is batch j + 1 (pinned_pair
  // drops batch 0), so odd j ran without the lock and the even j after it with it
  const std::vector<double> v = pinned_pair(6 * pair_batches, rounds, side(0), side(1));
  std::vector<double> adds;
  for (std::size_t j = 1; j + 1 < v.size(); j += 2) adds.push_back((v[j + 1] - v[j]) / 2);
  return adds;
}

/// The quantiles of `v` at wake_quantile_probabilities (quantile_of's rule).
std::vector<double> quantiles_of(const std::vector<double>& v) {
  std::vector<double> q;
  for (double p : wake_quantile_probabilities) q.push_back(quantile_of(v, p));
  return q;
}

struct wake_costs {
  double unpark = 0, wake_latency = 0;
  std::vector<double> wake_quantiles;  ///< at wake_quantile_probabilities
  double block_cpu = 0;                ///< the sleeper's thread CPU across its wait
};

/// notify_one with a sleeper on the partner CPU (its cost, the time until the sleeper runs,
/// steady_clock stamps on both sides, and the sleeper's thread CPU time across its wait): the
/// medians of `rounds` rounds.
wake_costs measure_wakes(int rounds) {
  std::vector<double> u, w, c;
  std::mutex mx;
  std::condition_variable cv;
  bool ready = false, go = false;
  clk::time_point sent;
  for (int i = 0; i < rounds; ++i) {
    double woke_after = 0, cpu_in_wait = 0;
    std::thread b([&] {
      pin(partner_cpu());
      std::unique_lock lk(mx);
      ready = true;
      cv.notify_all();
      const std::uint64_t cpu0 = thread_platform::cpu_ns();
      cv.wait(lk, [&] { return go; });
      woke_after = ns_since(sent);
      cpu_in_wait = double(thread_platform::cpu_ns() - cpu0);
    });
    {
      pin(0);
      std::unique_lock lk(mx);
      cv.wait(lk, [&] { return ready; });
    }
    std::this_thread::sleep_for(std::chrono::microseconds(50));  // b is asleep in the futex
    {
      std::lock_guard g(mx);
      go = true;
      sent = clk::now();
    }
    auto t0 = clk::now();
    cv.notify_one();
    u.push_back(ns_since(t0));
    b.join();
    w.push_back(woke_after);
    c.push_back(cpu_in_wait);
    ready = go = false;
  }
  unpin();
  std::sort(u.begin(), u.end());
  std::sort(w.begin(), w.end());
  return {u[u.size() / 2], w[w.size() / 2], quantiles_of(w), median_of(c)};
}

/// A timed wait's overshoot: how long after its deadline a thread on the partner CPU with the
/// runtime's timer slack (1 ns, thread_platform.cpp) runs again, over `rounds` waits of 20 us on
/// a condition variable nobody notifies (the runtime's parker waits so): its quantiles.
std::vector<double> measure_timer_late(int rounds) {
  std::vector<double> late;
  std::thread t([&] {
    pin(partner_cpu());
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    std::mutex mx;
    std::condition_variable cv;
    std::unique_lock lk(mx);
    for (int i = 0; i < rounds; ++i) {
      const auto until = clk::now() + std::chrono::microseconds(20);
      while (clk::now() < until) cv.wait_until(lk, until);  // a spurious wake-up waits again
      late.push_back(std::chrono::duration<double, std::nano>(clk::now() - until).count());
    }
  });
  t.join();
  return quantiles_of(late);
}

}  // namespace

void measure_core(calibration_run& run) {
  machine_model& m = run.model();
  const int reps = run.reps;
  const std::uint64_t scale = run.scale;
  run.say("calibrate: the core and its atomics (tight loops on one thread)");
  static line own;
  const std::uint64_t n = 1'000'000 / scale;
  m.clock_ghz = quantile(reps, 0.75, [&] {  // a rate: noise only lowers it
    std::uint64_t x = 1;
    auto t0 = clk::now();
    for (std::uint64_t i = 0; i < n; ++i) {
      x += i;
      asm volatile("" : "+r"(x));
    }
    return double(n) / ns_since(t0);
  });
  m.atomic_load = cost_of(reps, [&] {
    return per_op(n, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) (void)own.v.load(std::memory_order_acquire);
    });
  });
  m.atomic_store = cost_of(reps, [&] {
    return per_op(n, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) own.v.store(i, std::memory_order_release);
    });
  });
  m.atomic_rmw = cost_of(reps, [&] {
    return per_op(n / 4, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) own.v.fetch_add(1);
    });
  });
  m.fence = cost_of(reps, [&] {
    return per_op(n / 4, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) std::atomic_thread_fence(std::memory_order_seq_cst);
    });
  });
  m.spin = cost_of(reps, [&] {
    return per_op(n / 40, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
      }
    });
  });
  m.yield = cost_of(reps, [&] {
    return per_op(2000 / scale, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) sched_yield();
    });
  });
  run.note(fmt("clock %.2f GHz (add chain); atomic load %.2f, store %.2f, rmw %.2f ns", m.clock_ghz, m.atomic_load,
               m.atomic_store, m.atomic_rmw) +
           fmt("; fence %.2f ns, spin %.2f ns, yield %.0f ns", m.fence, m.spin, m.yield));
}

void measure_between_cores(calibration_run& run) {
  machine_model& m = run.model();
  run.say(fmt("calibrate: between cores (two threads pinned to CPUs 0 and %.0f)", partner_cpu()));
  const int pair_batches = run.opt.quick ? 200 : 600;
  m.line_same_socket = lower_quartile(chase(pair_batches, 2048));
  m.line_cross_socket = m.line_same_socket;
  // the least of five: the host moves this VM's CPUs now and then, and a trip between CPUs it
  // placed apart for a moment (several times slower) is not the machine's hand-off
  double one_way = lower_quartile(bounce(pair_batches, 50, [] {}));
  for (int k = 0; k < 4; ++k) one_way = std::min(one_way, lower_quartile(bounce(pair_batches, 50, [] {})));
  // The lookahead rule of conservative parallel simulation: no worker may run ahead of the
  // others by more than the fastest way one can affect another, here a hand-off between two
  // cores (the ping-pong's one way). With a longer fixed quantum, a hand-off in pingpong took
  // several times its real time in simulation, by where the quanta fell.
  m.quantum_ns = std::max(10.0, std::round(one_way));
  static std::vector<std::uint64_t> buf(16 * 1024 / 8);
  std::uint64_t sink = 0;
  const double migrate = lower_quartile(bounce(pair_batches / 4, 5, [&] {
    for (auto& x : buf) sink += x;
    for (auto& x : buf) ++x;  // and write it back: the next round pulls it again
  }));
  asm volatile("" : : "r"(sink));
  m.migration_per_kib = std::max(0.0, (2 * migrate - 2 * one_way) / 16.0);  // once per round trip
  const std::vector<double> lock_adds = lock_handoff_adds(pair_batches);
  m.lock_handoff = std::max(0.0, median_of(lock_adds) - m.line_same_socket - m.atomic_rmw);  // the lock word's move is charged apart
  run.note(fmt("line transfer %.1f ns (a dependent load of a line the other CPU wrote; a ping-pong's one way: %.0f ns)",
               m.line_same_socket, one_way) +
           fmt(", migration %.0f ns/KiB, lock hand-off %.0f ns", m.migration_per_kib, m.lock_handoff) +
           fmt(" (the lock adds %.0f ns a hand-off, median;", median_of(lock_adds)) +
           fmt(" quartiles %.0f", quantile_of(lock_adds, 0.25)) + fmt("-%.0f)", quantile_of(lock_adds, 0.75)));
}

void measure_parking(calibration_run& run) {
  machine_model& m = run.model();
  run.say("calibrate: parking (futex wait, condition variable wake-ups)");
  int word = 0;
  m.park = cost_of(run.reps, [&] {
    return per_op(2000 / run.scale, [&](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
    });
  });
  m.contended_unlock = cost_of(run.reps, [&] {
    return per_op(2000 / run.scale, [&](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    });
  });
  const wake_costs wakes = measure_wakes(run.opt.quick ? 300 : 2000);
  m.unpark = wakes.unpark;
  m.wake_latency = wakes.wake_latency;
  m.wake_latency_quantiles = wakes.wake_quantiles;
  // the futex call inside it is park's already; the rest lies inside the block
  m.block_cpu = std::clamp(wakes.block_cpu - m.park, 0.0, m.wake_latency);
  m.timer_late_quantiles = measure_timer_late(run.opt.quick ? 300 : 2000);
  run.note(fmt("park %.0f ns, unpark %.0f ns, wake-up latency %.0f ns", m.park, m.unpark, m.wake_latency) +
           fmt(" (p90 %.0f, p99 %.0f),", wakes.wake_quantiles[5], wakes.wake_quantiles[6]) +
           fmt(" contended unlock %.0f ns, a blocked park's own CPU %.0f ns", m.contended_unlock, m.block_cpu));
  run.note(fmt("a timed park's overshoot past its deadline: p50 %.0f ns, p90 %.0f, p99 %.0f", m.timer_late_quantiles[3],
               m.timer_late_quantiles[5], m.timer_late_quantiles[6]));
}

void measure_burn(calibration_run& run) {
  machine_model& m = run.model();
  run.say("calibrate: burn_ns (thread_platform's TSC-deadline loop)");
  thread_platform plat;
  // Short batches (16 calls, 32 us), many of them: on this VM the hypervisor takes the vCPU
  // away often enough that every 1 ms batch paid for it (two calibrations then disagreed
  // widely); the lower quartile of short ones is the loop's own cost.
  const int calls = 16;
  plat.burn_ns(2000);
  double per_call = cost_of(10 * run.reps, [&] {
    auto t0 = clk::now();
    for (int i = 0; i < calls; ++i) plat.burn_ns(2000);
    return ns_since(t0) / calls;
  });
  m.burn_call = std::max(0.0, per_call - 2000);
  run.c.burn_2000_ratio = per_call / 2000;
  run.note(fmt("burn_ns(2000) took %.0f ns a call (x%.3f): burn_call %.1f ns", per_call, run.c.burn_2000_ratio,
               m.burn_call));
}

void measure_kernels(calibration_run& run) {
  run.say("calibrate: the workloads' compute kernels (one thread)");
  for (const workload_info* w : all_workloads()) {
    for (const kernel_spec& k : w->kernels) {
      const std::uint64_t units = 1'000'000 / run.scale;
      std::uint64_t kept = 0;
      // Not cost_of's lower quartile, nor a median of short batches: a kernel runs for long
      // stretches (pi: jobs of a million terms), which pay the machine's typical rate, its
      // timer ticks and the hypervisor's exits included. Batches of a million units (about a
      // millisecond: most hold a tick), averaged but for the slowest tenth (a preemption by
      // another process). A median of 200,000-unit batches, which mostly miss the ticks, came
      // out below that, and pi simulated fast on one worker.
      std::vector<double> batch;
      for (int i = 0; i < run.reps; ++i) {
        auto t0 = clk::now();
        kept += k.run(units);
        batch.push_back(ns_since(t0) / double(units));
      }
      std::sort(batch.begin(), batch.end());
      batch.resize(batch.size() - batch.size() / 10);
      const double per_unit = std::accumulate(batch.begin(), batch.end(), 0.0) / double(batch.size());
      asm volatile("" : : "r"(kept));
      run.model().kernels[k.name] = per_unit;
      run.note("kernel " + k.name + " (workload " + w->name + ", parameter " + k.param +
               fmt("): %.3f ns a unit", per_unit));
    }
  }
}

}  // namespace twinsched::calib
