// The real backend's trace clock: the CPU's time-stamp counter, calibrated against the steady clock while the run goes.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "traces/tick_clock.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace twinsched {

/// Ticks are TSC cycles on x86 (invariant TSC: constant rate, synchronized across cores on
/// any machine from the last decade), steady-clock nanoseconds elsewhere. The hot path reads
/// `read()`; the recorder's writer converts with a rate refined between chunks from (tsc,
/// steady) pairs taken at construction and now, each pair read back to back with the
/// smallest gap out of a few tries, so the rate's error shrinks as the run gets longer.
class tsc_clock final : public traces::tick_clock {
 public:
  tsc_clock();

  static std::uint64_t read() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
  }

  std::uint64_t now() const override { return read() - base_ticks_; }
  std::uint64_t base() const override { return base_ticks_; }
  double ns_per_tick() const override { return rate_; }
  void refine() override;
  std::string name() const override;
  std::string note() const override;

 private:
  struct pair {
    std::uint64_t ticks;
    std::int64_t ns;  // steady clock
  };
  static pair sample();

  pair base_;
  std::uint64_t base_ticks_;
  double rate_ = 1.0;
  double window_ns_ = 0;  // steady time the current rate was measured over
};

}  // namespace twinsched
