// Parking tests: a token deposited before park is kept; the announce/re-check/park protocol never loses a wake-up.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "models/parking.hpp"
#include "runtime/thread_platform.hpp"

using namespace twinsched;
using P = thread_platform;

TEST_CASE("an unpark before park is not lost: park returns at once" * doctest::timeout(10)) {
  P::parker p;
  p.unpark();
  p.park();  // would hang if the token were lost
  CHECK(true);
}

TEST_CASE("park_for returns after its timeout when nobody wakes it" * doctest::timeout(10)) {
  P::parker p;
  auto t0 = std::chrono::steady_clock::now();
  p.park_for(2'000'000);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(2));
}

// A producer hands items one at a time to a consumer that parks (without timeout) whenever
// it sees none. A lost wake-up leaves the consumer parked forever: the test times out.
TEST_CASE("a consumer that parks between items never misses one (no lost wake-up)" *
          doctest::test_suite("concurrency") * doctest::timeout(60)) {
  constexpr int rounds = 100'000;
  parking<P> park(2);
  std::atomic<int> available{0};
  int consumed = 0;
  std::thread consumer([&] {
    while (consumed < rounds) {
      if (available.load() > 0) {
        available.fetch_sub(1);
        ++consumed;
        continue;
      }
      park.announce(1);
      if (available.load() > 0) {
        park.cancel(1);
        continue;
      }
      park.park(1);
      park.cancel(1);
    }
  });
  for (int i = 0; i < rounds; ++i) {
    available.fetch_add(1);
    park.wake(1, 0);
    if (i % 64 == 0) std::this_thread::yield();
  }
  consumer.join();
  CHECK(consumed == rounds);
}
