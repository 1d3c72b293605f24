// What every benchmark does before it times anything: calibrate the burn loop, and run each configuration once untimed.
#pragma once
#include "runtime/thread_platform.hpp"

namespace twinsched::bench {

/// Measures the burn loop now (burn_loops_per_us(): about 10 ms, once per process, on first
/// use), so that no timed run pays for it. Call it first thing in main; returns loops per us.
inline double calibrate_burn_loop() { return burn_loops_per_us(); }

/// Calls `once(false)` one time untimed (a warm-up: caches, allocator pools, lazily faulted
/// pages, the first thread start-ups), then `once(true)` `runs` times: the measured runs.
template <class Once>
void warm_up_then_measure(int runs, Once&& once) {
  once(false);
  for (int i = 0; i < runs; ++i) once(true);
}

/// The sentence each benchmark's --help ends with.
inline constexpr const char* warm_up_note =
    "Before timing anything the burn loop (CPU cost of cost_ns work) is calibrated, and each measured "
    "configuration runs once untimed (a warm-up) before its measured runs.";

}  // namespace twinsched::bench
