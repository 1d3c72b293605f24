// Chase-Lev deque tests: LIFO for the owner, FIFO for thieves, every element taken exactly once under theft.
#include <doctest/doctest.h>

#include <vector>

#include "models/policy/chase_lev_deque.hpp"
#include "platform_harness.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

TEST_CASE_TEMPLATE("the owner pops in LIFO order and thieves take the oldest first, across growth", P, thread_platform,
                   sim_platform) {
  on_one_worker<P>([](P&) {
    using deque_t = chase_lev_deque<P, int*>;
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
  });
}

// The concurrent test of this protocol runs on both platforms: tests/models/protocols_test.cpp.

// The harness the cases above run in simulation through must pass a failed check in its child
// process back, or every sim_platform case here would pass whatever it checked.
TEST_CASE("a CHECK that fails inside a simulation fails its case" * doctest::should_fail()) {
  on_one_worker<sim_platform>([](sim_platform&) {
    chase_lev_deque<sim_platform, int*> d(4);
    CHECK(d.pop() != nullptr);  // empty: pop finds nothing
  });
}

TEST_CASE("a REQUIRE that fails inside a simulation fails its case" * doctest::should_fail()) {
  on_one_worker<sim_platform>([](sim_platform&) {
    chase_lev_deque<sim_platform, int*> d(4);
    REQUIRE(d.size() == 1);  // empty
  });
}

TEST_SUITE_END();
