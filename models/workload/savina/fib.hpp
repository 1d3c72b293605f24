// Savina's Fib: the arithmetic its workload and its check test share.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_fib {

/// Savina's Fibonacci numbers: fib(n) = 1 for n <= 2, fib(n - 1) + fib(n - 2) above.
constexpr std::uint64_t value(std::uint64_t n) {
  std::uint64_t a = 1, b = 1;  // fib(k - 1), fib(k)
  for (std::uint64_t k = 2; k < n; ++k) {
    const std::uint64_t c = a + b;
    a = b;
    b = c;
  }
  return b;
}

/// Actors the run spawns, one a call of the recursion: 2 fib(n) - 1.
constexpr std::uint64_t calls(std::uint64_t n) { return 2 * value(n) - 1; }

/// A request to every call (the root's is injected) and a response from every call but the root.
constexpr std::uint64_t messages(std::uint64_t n) { return 2 * calls(n) - 1; }

/// Savina's validation: the root's result is fib(n).
constexpr bool result_ok(std::uint64_t n, std::uint64_t result) { return result == value(n); }

/// What a call's actor adds to its accumulator for a request for fib(n) and for a child's
/// response carrying fib(k).
constexpr std::uint64_t request_print(std::uint64_t n) { return splitmix64(n); }
constexpr std::uint64_t response_print(std::uint64_t v) { return splitmix64(v ^ 0x8000000000000000ull); }

/// The sum of the accumulators of the call tree under a request for fib(n), computed
/// sequentially: the request itself, and for n > 2 both subtrees and both responses.
constexpr std::uint64_t tree_print(std::uint64_t n) {
  std::uint64_t below1 = request_print(1), below2 = request_print(2);  // tree_print(k - 2), tree_print(k - 1)
  if (n <= 2) return request_print(n);
  for (std::uint64_t k = 3; k <= n; ++k) {
    const std::uint64_t here =
        request_print(k) + below2 + below1 + response_print(value(k - 1)) + response_print(value(k - 2));
    below1 = below2;
    below2 = here;
  }
  return below2;
}

}  // namespace twinsched::savina_fib
