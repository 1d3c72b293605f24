// Parking tests: a token deposited before park is kept; the announce/re-check/park protocol never loses a wake-up.
#include <doctest/doctest.h>

#include <cstdint>

#include "interleave_platform.hpp"
#include "models/parking.hpp"
#include "platform_harness.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

// The parker (platform contract 3) on threads and in simulation: its clock is the platform's.
TEST_CASE_TEMPLATE("an unpark before park is not lost: park returns at once, having consumed the one token" * doctest::timeout(10),
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P& plat) {
    typename P::parker p;
    p.unpark();
    p.unpark();  // idempotent: still one token
    // Would hang if the token were lost; the test's deadline (tests/support/doctest_main.cpp),
    // or in simulation the all-parked check, turns that hang into a failure, so that is the
    // check that park returns.
    p.park();
    // park consumed the token, and the second unpark did not leave another: the next
    // park_for finds none and waits for its whole timeout.
    const std::uint64_t t0 = plat.now_ns();
    p.park_for(2'000'000);
    CHECK(plat.now_ns() - t0 >= 2'000'000);
  });
}

TEST_CASE_TEMPLATE("park_for returns after its timeout when nobody wakes it" * doctest::timeout(10), P, thread_platform,
                   sim_platform) {
  on_one_worker<P>([](P& plat) {
    typename P::parker p;
    const std::uint64_t t0 = plat.now_ns();
    p.park_for(2'000'000);
    CHECK(plat.now_ns() - t0 >= 2'000'000);
  });
}

// The concurrent test of this protocol runs on both platforms: tests/models/protocols_test.cpp.

// ---- every interleaving of a waker into a sleeper's announce (tests/support/interleave_platform.hpp) ----
// These run on interleave_platform alone: it is the platform that injects a party at each point.

namespace {
using IP = twinsched::testing::interleave_platform;

/// Points (atomic operations and fences) in one announce: where another party can land.
unsigned points_in_announce() {
  parking<IP> park(3);
  IP::reset();
  park.announce(0);
  unsigned n = IP::points;
  IP::reset();
  return n;
}
}  // namespace

// The basic handshake: a waker publishes work for worker 1 and wakes it, landing anywhere
// in worker 1's announce and re-check. Either the re-check sees the work or the wake
// reaches worker 1.
TEST_CASE("a waker landing anywhere in a sleeper's announce and re-check is seen or wakes it") {
  const unsigned n = points_in_announce() + 1;  // + the re-check's load
  REQUIRE(n >= 3);
  for (unsigned k = 0; k <= n; ++k) {
    CAPTURE(k);
    parking<IP> park(3);
    IP::atomic<int> work{0};
    bool woke = false;
    IP::reset([&](unsigned at) {
      if (at != k) return;
      work.store(1);
      woke = park.wake(1, 2);
    });
    park.announce(1);
    bool seen = work.load() != 0;  // sleeper step 2
    IP::point();                   // the waker may also come after everything
    IP::reset();
    CHECK((seen || woke));
  }
}

// The hang of parking.hpp's "Why the order inside step 1 matters", in miniature. Worker 1
// sleeps (announced, re-checked, parked). Worker 0 announces; at each point of that
// announce, worker 2 hands worker 0 an actor (and claims it), then hands worker 1 one and
// wakes it. With the flag raised before count_ was incremented, the claim of worker 0 could
// take count_ to 0 before worker 0 incremented it, so the wake for worker 1 read count_ == 0
// and woke nobody: worker 1 slept on with an actor in its queue.
TEST_CASE("claiming one sleeper mid-announce never hides another sleeper from its wake (count_ never under-counts)") {
  const unsigned n = points_in_announce();
  for (unsigned k = 0; k <= n; ++k) {
    CAPTURE(k);
    parking<IP> park(3);
    bool work_for_1 = false;
    IP::reset();
    park.announce(1);
    const bool seen_by_1 = work_for_1;  // worker 1's re-check: nothing yet, so it parks
    bool woke_1 = false;
    IP::reset([&](unsigned at) {
      if (at != k) return;
      park.wake(0, 2);  // an actor for worker 0: claims it if its flag is up already
      work_for_1 = true;
      woke_1 = park.wake(1, 2);
      CHECK(park.count() >= unsigned(park.flagged(0)) + unsigned(park.flagged(1)));
    });
    park.announce(0);
    IP::point();  // the waker after worker 0's whole announce
    IP::reset();
    CHECK_FALSE(seen_by_1);
    CHECK(woke_1);
  }
}

TEST_SUITE_END();
