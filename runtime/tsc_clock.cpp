// Calibrating the TSC against the steady clock: a short measurement at start, refined on every chunk.
#include "tsc_clock.hpp"

#include <cstdio>
#include <thread>

namespace twinsched {

tsc_clock::pair tsc_clock::sample() {
  pair best{};
  std::uint64_t best_gap = ~std::uint64_t(0);
  for (int k = 0; k < 5; ++k) {  // the tightest of 5: robust to an interrupt between the reads
    const std::uint64_t a = read();
    const std::int64_t ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    const std::uint64_t b = read();
    if (b - a < best_gap) {
      best_gap = b - a;
      best = {a + (b - a) / 2, ns};
    }
  }
  return best;
}

tsc_clock::tsc_clock() : base_(sample()), base_ticks_(base_.ticks) {
#if defined(__x86_64__) || defined(__i386__)
  // An initial rate over ~200 us; refine() improves it as the run goes.
  pair p = sample();
  while (p.ns - base_.ns < 200'000) {
    std::this_thread::yield();
    p = sample();
  }
  rate_ = double(p.ns - base_.ns) / double(p.ticks - base_.ticks);
  window_ns_ = double(p.ns - base_.ns);
#endif
}

void tsc_clock::refine() {
#if defined(__x86_64__) || defined(__i386__)
  const pair p = sample();
  if (p.ticks <= base_.ticks || double(p.ns - base_.ns) <= window_ns_) return;
  rate_ = double(p.ns - base_.ns) / double(p.ticks - base_.ticks);
  window_ns_ = double(p.ns - base_.ns);
#endif
}

std::string tsc_clock::name() const {
#if defined(__x86_64__) || defined(__i386__)
  return "tsc";
#else
  return "steady";
#endif
}

std::string tsc_clock::note() const {
  char b[160];
  std::snprintf(b, sizeof b, "%s at %.4f GHz, calibrated against the steady clock over %.3f ms", name().c_str(),
                1.0 / rate_, window_ns_ * 1e-6);
  return b;
}

}  // namespace twinsched
