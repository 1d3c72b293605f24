// Runs a test's concurrent part on either platform: N std::threads, or N workers of a simulation in a child process.
//
// A protocol test written once over P (mailbox, deque, parking) is instantiated for
// thread_platform and sim_platform (TEST_CASE_TEMPLATE). `on_workers<P>(n, make)` builds the
// shared state with `make(plat)` (a unique_ptr to an object with `void work(unsigned
// worker)` and `R result() const`), runs work(0..n-1) on n workers and returns result().
// In simulation the state lives inside the simulated driver, each worker is an S4U actor
// on its own modeled core, and the whole simulation runs in a forked child (SimGrid's
// engine exists once per process), which sends R back through a pipe: R must be trivially
// copyable. A simulation that hangs stops at its simulated time limit and comes back as
// `aborted`, with the hang report (the caller CHECKs it).
// Busy loops in a body must call plat.spin_pause(): in simulation that is what advances
// the clock and lets the other workers run.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "in_child.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/machine_model.hpp"
#include "sim/sim_platform.hpp"

namespace twinsched::testing {

template <class R>
struct outcome {
  bool aborted = false;
  std::string why;  ///< the simulation's errors when aborted
  R result{};
};

template <class P, class Make>
auto on_workers(unsigned n, Make make) {
  using state = typename decltype(make(std::declval<P&>()))::element_type;
  using R = decltype(std::declval<const state&>().result());
  static_assert(std::is_trivially_copyable_v<R>);
  outcome<R> out;
  if constexpr (std::is_same_v<P, thread_platform>) {
    thread_platform plat;
    auto st = make(plat);
    for (unsigned i = 0; i < n; ++i) plat.start_worker(int(i), [&st, i] { st->work(i); });
    plat.join_workers();
    out.result = st->result();
  } else {
    struct sent {
      bool aborted;
      R result;
    };
    sent got = in_child<sent>(
        [&](std::string& why) {
          sim_config c;
          c.cores = n;
          c.time_limit_s = 60;
          sim_platform plat(load_machine("default"), c);
          sent r{};
          plat.run([&] {
            auto st = make(plat);
            for (unsigned i = 0; i < n; ++i) plat.start_worker(int(i), [&st, i] { st->work(i); });
            plat.join_workers();
            r.result = st->result();
          });
          for (auto& e : plat.stats().errors) why += e + "\n";
          r.aborted = plat.stats().aborted;
          return r;
        },
        &out.why);
    out.aborted = got.aborted;
    out.result = got.result;
  }
  return out;
}

/// The platforms a protocol test runs on. ThreadSanitizer builds leave out the simulator:
/// TSan cannot follow SimGrid's context switches; the other builds run both.
#if defined(TWINSCHED_TSAN)
using both_platforms = std::tuple<thread_platform>;
#else
using both_platforms = std::tuple<thread_platform, sim_platform>;
#endif

/// Smaller sizes in simulation, where every platform operation is a modeled one.
template <class P>
constexpr int scaled(int n) {
  return std::is_same_v<P, thread_platform> ? n : n / 10;
}

}  // namespace twinsched::testing
