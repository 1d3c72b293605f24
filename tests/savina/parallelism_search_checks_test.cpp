// Savina's searches and divide-and-conquer benchmarks: each one's validation refuses a wrong result.
#include <doctest/doctest.h>

#include "models/workload/savina/fib.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("fib: the value is Savina's Fibonacci number, and its message count follows from it") {
  CHECK(savina_fib::value(1) == 1);
  CHECK(savina_fib::value(2) == 1);
  CHECK(savina_fib::value(25) == 75025);
  CHECK(savina_fib::result_ok(25, 75025));
  CHECK_FALSE(savina_fib::result_ok(25, 75024));
  CHECK_FALSE(savina_fib::result_ok(25, 46368));  // fib(24): a subtree lost
  CHECK(savina_fib::calls(4) == 5);               // fib(4) -> fib(3), fib(2); fib(3) -> fib(2), fib(1)
  CHECK(savina_fib::messages(4) == 9);
  CHECK(savina_fib::messages(25) == 300097);
  // the sequential print is the recursion's own
  CHECK(savina_fib::tree_print(3) == savina_fib::request_print(3) + savina_fib::request_print(2) +
                                         savina_fib::request_print(1) + 2 * savina_fib::response_print(1));
}
