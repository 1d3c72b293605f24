// twinsched_calibrate: measures this machine's costs and prints them as a models/machines/*.toml file.
//
// Each figure is the median of 7 repetitions (robust to a preemption during one of them):
//   atomic_load / atomic_store / atomic_rmw / fence: a tight loop of the operation on a line
//       this thread owns (rmw = fetch_add, fence = seq_cst fence), ns per operation
//   line_transfer_same_socket: two threads pinned to cores 0 and 1 bounce a counter in one
//       cache line (each waits for the other's increment); one-way time = round trip / 2
//   migration_per_kib: the same bounce, but the receiver then reads a 16 KiB buffer the
//       sender just wrote; (that time - one transfer) / 16
//   lock_handoff: two pinned threads alternately take a std::mutex (strict alternation via
//       a turn flag); time per hand-off minus one line transfer and one rmw
//   park / unpark / wake_latency: a futex-backed std::condition_variable; park = one futex
//       wait syscall that returns at once, unpark = notify_one with a sleeper, wake latency =
//       notify to the sleeper running (steady_clock stamps on both sides)
//   spin: one _mm_pause; yield: one sched_yield with nothing else to run on this core
//   clock_ghz: cycles of a dependent add chain per ns (not the TSC rate)
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/futex.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace {
using clk = std::chrono::steady_clock;
double ns_since(clk::time_point t0) { return std::chrono::duration<double, std::nano>(clk::now() - t0).count(); }

double median(std::function<double()> f, int reps = 7) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(f());
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu % int(std::thread::hardware_concurrency()), &s);
  pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

struct alignas(64) line {
  std::atomic<std::uint64_t> v{0};
};

double per_op(std::uint64_t n, const std::function<void(std::uint64_t)>& body) {
  auto t0 = clk::now();
  body(n);
  return ns_since(t0) / double(n);
}

/// One-way line transfer: ping-pong of a counter between cores 0 and 1; `extra` runs on the
/// receiving side after each arrival.
double bounce(int rounds, const std::function<void()>& extra_b = {}) {
  line l;
  std::thread b([&] {
    pin(1);
    for (int i = 0; i < rounds; ++i) {
      while (l.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 1)) {
      }
      if (extra_b) extra_b();
      l.v.store(2 * i + 2, std::memory_order_release);
    }
  });
  pin(0);
  auto t0 = clk::now();
  for (int i = 0; i < rounds; ++i) {
    l.v.store(2 * i + 1, std::memory_order_release);
    while (l.v.load(std::memory_order_acquire) != std::uint64_t(2 * i + 2)) {
    }
  }
  double ns = ns_since(t0) / rounds / 2;
  b.join();
  return ns;
}
}  // namespace

int main() {
  static line own;
  const std::uint64_t n = 20'000'000;
  double ghz = median([&] {
    std::uint64_t x = 1;
    auto t0 = clk::now();
    for (std::uint64_t i = 0; i < n; ++i) {
      x += i;
      asm volatile("" : "+r"(x));
    }
    return double(n) / ns_since(t0);
  });
  double load = median([&] { return per_op(n, [](std::uint64_t k) { for (std::uint64_t i = 0; i < k; ++i) (void)own.v.load(std::memory_order_acquire); }); });
  double store = median([&] { return per_op(n, [](std::uint64_t k) { for (std::uint64_t i = 0; i < k; ++i) own.v.store(i, std::memory_order_release); }); });
  double rmw = median([&] { return per_op(n / 4, [](std::uint64_t k) { for (std::uint64_t i = 0; i < k; ++i) own.v.fetch_add(1); }); });
  double fence = median([&] { return per_op(n / 4, [](std::uint64_t k) { for (std::uint64_t i = 0; i < k; ++i) std::atomic_thread_fence(std::memory_order_seq_cst); }); });
  double spin = median([&] {
    return per_op(n / 10, [](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) {
#if defined(__x86_64__) || defined(__i386__)
        _mm_pause();
#endif
      }
    });
  });
  double yield = median([&] { return per_op(200'000, [](std::uint64_t k) { for (std::uint64_t i = 0; i < k; ++i) sched_yield(); }); });
  double transfer = median([&] { return bounce(200'000); });
  static std::vector<std::uint64_t> buf(16 * 1024 / 8);
  double migrate = median([&] {
    std::uint64_t sink = 0;
    double t = bounce(20'000, [&] {
      for (auto& x : buf) sink += x;
      for (auto& x : buf) ++x;  // and write it back: the next round pulls it again
    });
    asm volatile("" : : "r"(sink));
    return t;
  });
  double per_kib = std::max(0.0, (2 * migrate - 2 * transfer) / 16.0);  // the buffer moves once per round trip
  double handoff = median([&] {
    std::mutex m;
    line turn;
    const int rounds = 100'000;
    std::thread b([&] {
      pin(1);
      for (int i = 0; i < rounds; ++i) {
        while (turn.v.load(std::memory_order_acquire) != 1) {
        }
        std::lock_guard g(m);
        turn.v.store(0, std::memory_order_release);
      }
    });
    pin(0);
    auto t0 = clk::now();
    for (int i = 0; i < rounds; ++i) {
      while (turn.v.load(std::memory_order_acquire) != 0) {
      }
      std::lock_guard g(m);
      turn.v.store(1, std::memory_order_release);
    }
    double ns = ns_since(t0) / (2.0 * rounds);
    b.join();
    return std::max(0.0, ns - 2 * transfer - rmw);  // turn flag and lock word each move once per hand-off
  });
  int word = 0;
  double park = median([&] {
    return per_op(200'000, [&](std::uint64_t k) {
      for (std::uint64_t i = 0; i < k; ++i) syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
    });
  });
  double unpark = 0, wake = 0;
  {
    std::vector<double> u, w;
    std::mutex m;
    std::condition_variable cv;
    bool ready = false, go = false;
    clk::time_point sent;
    for (int i = 0; i < 2000; ++i) {
      double woke_after = 0;
      std::thread b([&] {
        pin(1);
        std::unique_lock lk(m);
        ready = true;
        cv.notify_all();
        cv.wait(lk, [&] { return go; });
        woke_after = ns_since(sent);
      });
      {
        pin(0);
        std::unique_lock lk(m);
        cv.wait(lk, [&] { return ready; });
      }
      std::this_thread::sleep_for(std::chrono::microseconds(50));  // b is asleep in the futex
      {
        std::lock_guard g(m);
        go = true;
        sent = clk::now();
      }
      auto t0 = clk::now();
      cv.notify_one();
      u.push_back(ns_since(t0));
      b.join();
      w.push_back(woke_after);
      ready = go = false;
    }
    std::sort(u.begin(), u.end());
    std::sort(w.begin(), w.end());
    unpark = u[u.size() / 2];
    wake = w[w.size() / 2];
  }
  unsigned cpus = std::thread::hardware_concurrency();
  std::printf("# measured by twinsched_calibrate on %u logical CPUs\n", cpus);
  std::printf("[topology]\nsockets = 1\ncores_per_socket = %u\nclock_ghz = %.2f\n\n[costs]\n", cpus, ghz);
  std::printf("atomic_load_ns = %.2f\natomic_store_ns = %.2f\natomic_rmw_ns = %.2f\nfence_ns = %.2f\n", load, store, rmw, fence);
  std::printf("line_transfer_same_socket_ns = %.1f\nline_transfer_cross_socket_ns = %.1f\n", transfer, transfer);
  std::printf("migration_per_kib_ns = %.1f\nlock_handoff_ns = %.1f\n", per_kib, handoff);
  std::printf("park_ns = %.0f\nunpark_ns = %.0f\nwake_latency_ns = %.0f\nspin_ns = %.2f\nyield_ns = %.0f\n", park, unpark, wake, spin, yield);
}
