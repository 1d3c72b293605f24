// Savina's Sieve: the arithmetic its workload and its check test share.
#pragma once
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_sieve {

/// Savina's isLocallyPrime: no prime in `primes` divides `candidate`. Adds the divisions it
/// made to `divisions` (the kernel's units).
inline bool locally_prime(std::uint64_t candidate, const std::uint64_t* primes, std::uint64_t count,
                          std::uint64_t& divisions) {
  // The same divisions in 32 bits while the candidate fits (every prime tried is below it): a
  // 64-bit divide takes up to twice as long on x86-64, and GCC does not narrow it by itself.
  if (candidate <= 0xffffffffu) {
    const auto c = std::uint32_t(candidate);
    for (std::uint64_t i = 0; i < count; ++i) {
      ++divisions;
      if (c % std::uint32_t(primes[i]) == 0) return false;
    }
    return true;
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    ++divisions;
    if (candidate % primes[i] == 0) return false;
  }
  return true;
}

/// Primes below `n` (Eratosthenes).
inline std::vector<std::uint64_t> primes_below(std::uint64_t n) {
  std::vector<bool> composite(n, false);
  std::vector<std::uint64_t> out;
  for (std::uint64_t i = 2; i < n; ++i) {
    if (composite[i]) continue;
    out.push_back(i);
    for (std::uint64_t j = i * i; j < n; j += i) composite[j] = true;
  }
  return out;
}

/// Savina's validation: the last filter counts every prime below n (2 and the odd candidates).
inline bool result_ok(std::uint64_t n, std::uint64_t primes_found) { return primes_found == primes_below(n).size(); }

/// What filter `f` (0: the first) adds to its accumulator for a candidate, and for the end marker.
constexpr std::uint64_t candidate_print(std::uint64_t f, std::uint64_t c) { return splitmix64(c ^ (f << 48)); }
constexpr std::uint64_t exit_print(std::uint64_t f) { return splitmix64(~f); }
/// What the producer adds for the message that starts it.
constexpr std::uint64_t start_print() { return splitmix64(0x5eed); }

/// The run computed sequentially: its message count and its checksum.
struct reference {
  std::uint64_t messages = 0, print = 0, filters = 0;
};

/// The chain keeps the primes in the order they arrive, m to a filter, so the prime of rank r
/// (2 has rank 0) lives in filter r / m. An odd candidate c visits filters 0 to the one holding
/// its smallest prime factor; a prime that opens a new filter (r a multiple of m) is received
/// only by the filters before it, the last of which spawns the new one.
inline reference run_sequentially(std::uint64_t n, std::uint64_t m) {
  const std::vector<std::uint64_t> primes = primes_below(n);
  std::vector<std::uint32_t> smallest(n, 0);  // rank of the smallest prime factor
  for (std::uint64_t r = primes.size(); r-- > 0;)
    for (std::uint64_t j = primes[r]; j < n; j += primes[r]) smallest[j] = std::uint32_t(r);
  reference out;
  out.filters = primes.empty() ? 1 : (primes.size() - 1) / m + 1;
  out.messages = 1 + out.filters;  // the start, and the end marker through every filter
  out.print = start_print();
  for (std::uint64_t f = 0; f < out.filters; ++f) out.print += exit_print(f);
  for (std::uint64_t c = 3; c < n; c += 2) {
    const std::uint64_t r = smallest[c];
    const bool opens = primes[r] == c && r % m == 0;
    const std::uint64_t last = opens ? r / m - 1 : r / m;
    for (std::uint64_t f = 0; f <= last; ++f) out.print += candidate_print(f, c);
    out.messages += last + 1;
  }
  return out;
}

}  // namespace twinsched::savina_sieve
