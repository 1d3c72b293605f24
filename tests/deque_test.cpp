// Chase-Lev deque tests: LIFO for the owner, FIFO for thieves, every element taken exactly once under theft.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "models/policy/chase_lev_deque.hpp"
#include "runtime/thread_platform.hpp"

using namespace twinsched;
using P = thread_platform;
using deque_t = chase_lev_deque<P, int*>;

TEST_CASE("the owner pops in LIFO order and thieves take the oldest first, across growth") {
  std::vector<int> v(200);
  deque_t d(4);
  for (auto& x : v) d.push(&x);
  CHECK(d.size() == 200);
  int* out = nullptr;
  REQUIRE(d.steal(out) == deque_t::steal_status::taken);
  CHECK(out == &v[0]);
  CHECK(d.pop() == &v[199]);
  CHECK(d.size() == 198);
  while (d.pop()) {}
  CHECK(d.steal(out) == deque_t::steal_status::empty);
}

TEST_CASE("owner and thieves racing: every element is taken exactly once" * doctest::test_suite("concurrency") *
          doctest::timeout(60)) {
  constexpr int items = 200'000, thieves = 3;
  std::vector<int> v(items);
  std::vector<std::atomic<int>> taken(items);
  deque_t d(8);
  std::atomic<bool> done{false};
  std::atomic<int> count{0};
  auto take = [&](int* x) {
    REQUIRE(taken[std::size_t(x - v.data())].fetch_add(1) == 0);
    count.fetch_add(1);
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < thieves; ++t)
    ts.emplace_back([&] {
      while (!done.load()) {
        int* x = nullptr;
        if (d.steal(x) == deque_t::steal_status::taken) take(x);
      }
    });
  for (int i = 0; i < items; ++i) {
    d.push(&v[std::size_t(i)]);
    if (i % 3 == 0)
      if (int* x = d.pop()) take(x);
  }
  while (int* x = d.pop()) take(x);
  while (count.load() < items) std::this_thread::yield();
  done = true;
  for (auto& t : ts) t.join();
  CHECK(count.load() == items);
}
