// The real platform's out-of-line parts: worker threads, their identity, and the calibrated busy loop.
#include "thread_platform.hpp"

#include <algorithm>

namespace twinsched {
namespace {
thread_local int current_index = -1;

/// The unit of burned work: a dependent chain the compiler cannot fold.
inline std::uint64_t spin_loops(std::uint64_t n, std::uint64_t x) {
  for (std::uint64_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));
  }
  return x;
}
}  // namespace

double burn_loops_per_us() {
  static const double rate = [] {
    // Median of 5 timings of a 2 ms loop: robust to a preemption during one of them.
    std::vector<double> r;
    std::uint64_t n = 200'000;
    for (int k = 0; k < 5; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      spin_loops(n, std::uint64_t(k));
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      r.push_back(double(n) / std::max(us, 1e-3));
    }
    std::sort(r.begin(), r.end());
    return r[2];
  }();
  return rate;
}

thread_platform::thread_platform() : t0_(std::chrono::steady_clock::now()) {}

void thread_platform::burn_ns(std::uint64_t ns) {
  static const double per_ns = burn_loops_per_us() / 1000.0;
  spin_loops(std::uint64_t(double(ns) * per_ns), ns);
}

void thread_platform::start_worker(int index, std::function<void()> fn) {
  threads_.emplace_back([index, f = std::move(fn)] {
    current_index = index;
    f();
  });
}

void thread_platform::join_workers() {
  for (auto& t : threads_) t.join();
  threads_.clear();
}

int thread_platform::current_worker() const { return current_index; }

}  // namespace twinsched
