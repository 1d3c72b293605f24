// The real platform's out-of-line parts: worker threads, their identity, the calibrated busy loop, huge-page memory.
#include "thread_platform.hpp"

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <new>
#include <utility>

#include "models/huge_pages.hpp"

#if defined(__linux__)
#include <sys/prctl.h>
#endif

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
/// The burn loop's clock: the invariant TSC on x86, the steady clock (ns) elsewhere.
inline std::uint64_t burn_clock() {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
#endif
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
  burn_ticks_per_ns();  // callers of this (the benchmarks) want every burn calibration done before timing
  return rate;
}

double burn_ticks_per_ns() {
  static const double rate = [] {
    // The TSC against the steady clock over ~4 ms, median of 3: each pair is read back to back
    // (steady, tsc, steady) and its tsc taken at the steady midpoint. A pair whose two steady
    // reads are more than 1 us apart was preempted between them, and its midpoint can be off
    // by half the preemption (a 100 us one: 4% of the interval, 80 ns on every burn_ns(2000),
    // so that two calibrations on a loaded machine disagree): it is read again, up to 64
    // times, keeping the tightest.
    std::vector<double> r;
    for (int k = 0; k < 3; ++k) {
      auto pair = [] {
        std::pair<std::uint64_t, double> best{0, 0};
        auto width = std::chrono::steady_clock::duration::max();
        for (int tries = 0; tries < 64 && width > std::chrono::microseconds(1); ++tries) {
          auto a = std::chrono::steady_clock::now();
          std::uint64_t t = burn_clock();
          auto b = std::chrono::steady_clock::now();
          if (b - a >= width) continue;
          width = b - a;
          best = {t, std::chrono::duration<double, std::nano>((a + (b - a) / 2).time_since_epoch()).count()};
        }
        return best;
      };
      auto p0 = pair();
      auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(1300);
      while (std::chrono::steady_clock::now() < until) {
      }
      auto p1 = pair();
      r.push_back(double(p1.first - p0.first) / std::max(p1.second - p0.second, 1.0));
    }
    std::sort(r.begin(), r.end());
    return r[1] > 0 ? r[1] : 1.0;
  }();
  return rate;
}

namespace {
/// The burn loop: spins until `left` ticks of this thread's running time have passed (gaps
/// over `preempted` ticks between two reads are not its running time). Returns the ticks of
/// those gaps.
[[gnu::noinline]] std::uint64_t spin_ticks(std::uint64_t left, std::uint64_t preempted) {
  std::uint64_t last = burn_clock(), lost = 0;
  for (;;) {
    std::uint64_t now = burn_clock();
    std::uint64_t step = now - last;
    last = now;
    if (step > preempted) {  // not our CPU time
      lost += step;
      continue;
    }
    if (step >= left) return lost;
    left -= step;
  }
}

/// What a burn_ns call costs besides the time it asks for, in ticks: the call, the first clock
/// read, the overshoot past the deadline. Measured once: 32 calls of a 2 us loop, the lower
/// quartile of 31 such batches (about 2 ms); burn_ns ends this much early.
std::uint64_t burn_overhead_ticks() {
  static const std::uint64_t ticks = [] {
    const double per_ns = burn_ticks_per_ns();
    const std::uint64_t want = std::uint64_t(2000 * per_ns), preempted = std::uint64_t(1000 * per_ns);
    std::vector<double> excess;
    for (int k = 0; k < 31; ++k) {
      std::uint64_t t0 = burn_clock();
      for (int i = 0; i < 32; ++i) spin_ticks(want, preempted);
      excess.push_back(double(burn_clock() - t0) / 32 - double(want));
    }
    std::sort(excess.begin(), excess.end());
    return std::uint64_t(std::max(0.0, excess[excess.size() / 4]));
  }();
  return ticks;
}
}  // namespace

thread_platform::thread_platform(bool calibrate_burn) : t0_(std::chrono::steady_clock::now()) {
  if (!calibrate_burn) return;
  burn_ticks_per_ns();
  burn_overhead_ticks();
}

/// Platform contract 6: `ns` of the calling thread's CPU time, measured on the TSC.
///
/// Why a clock and not a loop count: a precomputed iteration count does as much work as the
/// loop did when it was calibrated, which on a VM or a core with frequency scaling is not the
/// time it costs later. Spinning until a TSC deadline costs the time asked for whatever the
/// clock frequency does (the TSC is invariant).
///
/// Why CPU time, not wall time, under preemption: the simulator charges burn_ns to the worker
/// as core time (a worker sharing a core with another gets only its share, so its burn takes
/// longer in simulated time); a pure wall-clock deadline would instead let a preempted worker
/// finish its "work" while it was not even running, making the real run faster than the work
/// it claims. So the loop watches its own TSC reads: consecutive reads are tens of ns apart,
/// and a gap longer than `preempted_ticks` (1 us) is time this thread did not run (preempted,
/// descheduled by the hypervisor, a long interrupt); that gap is not counted, the deadline
/// moves by it. (CLOCK_THREAD_CPUTIME_ID would say the same exactly, but one read is a system
/// call, on a VM as long as a short burn.) What remains: gaps under 1 us (short interrupts)
/// are counted. The call's own cost and its overshoot past the deadline (measured once by
/// burn_overhead_ticks) are taken off the deadline, so a call costs `ns` on average, give or
/// take half a read.
void thread_platform::burn_ns(std::uint64_t ns) {
  if (ns == 0) return;
  static const double per_ns = burn_ticks_per_ns();
  static const std::uint64_t overhead = burn_overhead_ticks(), preempted = std::uint64_t(1000 * per_ns);
  const std::uint64_t want = std::uint64_t(double(ns) * per_ns);
  const std::uint64_t lost = spin_ticks(want > overhead ? want - overhead : 0, preempted);
  // a traced run's lane learns what the loop ran and lost (traces/event_lane.hpp, "Time off a
  // CPU"), so that a handling's work is what it spent on a CPU
  if (trace_sink lane = sink_of(unsigned(current_index))) {
    lane->add_burned(ns);
    if (lost != 0) [[unlikely]]
      lane->add_off_cpu(std::uint64_t(double(lost) / per_ns));
  }
}

namespace {

/// Timed waits that end when asked: the kernel's default timer slack (50 us) lets it end a
/// timed wait up to that much later, to batch wake-ups, so an idle strategy's short park
/// (sleep, backoff) lasted its length plus the slack, and a timer's delivery came late alike.
/// 1 ns asks for the earliest wake-up the kernel can give, which is what the simulator models.
void precise_timed_waits() {
#if defined(__linux__)
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
}

}  // namespace

/// Contract 20.
void* thread_platform::take_pages(std::size_t bytes) { return map_huge_pages(bytes); }

void thread_platform::give_pages(void* p, std::size_t bytes) { unmap_huge_pages(p, bytes); }

void thread_platform::start_worker(int index, std::function<void()> fn) {
  threads_.emplace_back([this, index, f = std::move(fn)] {
    current_index = index;
    precise_timed_waits();
    // traced: the lane watches how long the host keeps this worker from a CPU
    // (traces/event_lane.hpp, "Time off a CPU")
    trace_sink lane = sink_of(unsigned(index));
    traces::event_lane::thread_life life;
    if (lane) life = lane->thread_started();
    f();
    if (lane) lane->thread_done(life);
  });
}

void thread_platform::start_service(std::function<void()> fn) {
  threads_.emplace_back([f = std::move(fn)] {
    current_index = -1;
    precise_timed_waits();  // its waits are timers that deliver messages
    f();
  });
}

std::uint64_t thread_platform::cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::uint64_t(ts.tv_sec) * 1'000'000'000u + std::uint64_t(ts.tv_nsec);
}

void thread_platform::join_workers() {
  for (auto& t : threads_) t.join();
  threads_.clear();
}

int thread_platform::current_worker() const { return current_index; }

}  // namespace twinsched
