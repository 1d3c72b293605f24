// Savina's searches and divide-and-conquer benchmarks: each one's validation refuses a wrong result.
#include <doctest/doctest.h>

#include "models/workload/savina/fib.hpp"
#include "models/workload/savina/sieve.hpp"

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

TEST_CASE("sieve: the prime count is checked, and the sequential run counts the chain's messages") {
  CHECK(savina_sieve::primes_below(100000).size() == 9592);
  CHECK(savina_sieve::result_ok(100000, 9592));
  CHECK_FALSE(savina_sieve::result_ok(100000, 9591));
  CHECK_FALSE(savina_sieve::result_ok(100000, 9593));
  // n = 12, m = 2: filters {2, 3}, {5, 7}, {11}. 3 visits the first filter; 5 too (which, full,
  // spawns the second with it); 7 the first two; 9 the first (3 divides it); 11 the first two
  // (the second, full, spawns the third); the start and 3 end markers
  const auto r = savina_sieve::run_sequentially(12, 2);
  CHECK(r.filters == 3);
  CHECK(r.messages == 1 + 7 + 3);
  std::uint64_t d = 0;
  const std::uint64_t primes[] = {2, 3, 5};
  CHECK_FALSE(savina_sieve::locally_prime(9, primes, 3, d));
  CHECK(d == 2);
  CHECK(savina_sieve::locally_prime(7, primes, 3, d));
  CHECK(d == 5);
}
