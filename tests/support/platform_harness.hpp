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
// the clock and lets the other workers run. `on_one_worker<P>(body)` runs a sequential test
// body, with its CHECKs, on P: on threads in the test itself; in simulation on the one worker
// of a simulation in a child process, which counts its failed checks and sends the count back.
#pragma once
#include <doctest/doctest.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "in_child.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/machine_model.hpp"
#include "sim/sim_platform.hpp"

namespace twinsched::testing {

/// Failed doctest assertions in this process so far (support/doctest_main.cpp).
unsigned long failed_checks();

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

/// Runs `body(plat)` once on P. On threads, here. In simulation, on the one worker of a
/// simulation in a forked child: a failed CHECK prints there and is counted, a failed
/// REQUIRE ends the body, and the count comes back to fail the case here.
template <class P, class Body>
void on_one_worker(Body body) {
  if constexpr (std::is_same_v<P, thread_platform>) {
    thread_platform plat;
    body(plat);
  } else {
    struct state {
      P& plat;
      Body body;
      unsigned long failed = 0;
      state(P& p, Body b) : plat(p), body(std::move(b)) {}
      void work(unsigned) {
        const unsigned long before = failed_checks();
        try {
          body(plat);
        } catch (...) {  // a REQUIRE's (already reported), or the body's own
          ++failed;
        }
        failed += failed_checks() - before;
        std::cout.flush();  // the child ends without flushing what doctest printed
        std::fflush(stdout);
      }
      unsigned long result() const { return failed; }
    };
    auto o = on_workers<P>(1, [&](P& plat) { return std::make_unique<state>(plat, body); });
    REQUIRE_MESSAGE(!o.aborted, o.why);
    CHECK_MESSAGE(o.result == 0, "the simulation failed checks (printed above)");
  }
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
