// Chase-Lev deque tests: LIFO for the owner, FIFO for thieves, every element taken exactly once under theft.
#include <doctest/doctest.h>

#include <vector>

#include "models/policy/chase_lev_deque.hpp"
#include "runtime/thread_platform.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

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

// The concurrent test of this protocol runs on both platforms: tests/models/protocols_test.cpp.

TEST_SUITE_END();
