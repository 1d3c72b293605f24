// Seeded pseudo-random numbers for scheduling decisions (victim choice) and workloads: same on both platforms.
#pragma once
#include <cstdint>

namespace twinsched {

/// splitmix64: used to derive independent seeds (per worker, per token) from one scenario seed.
constexpr std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/// xorshift64*: small state, fast, good enough to pick steal victims.
class rng {
 public:
  explicit rng(std::uint64_t seed) : s_(splitmix64(seed) | 1) {}
  std::uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 0x2545f4914f6cdd1dull;
  }
  /// Uniform in [0, n) (Lemire's multiply-shift; bias below 2^-32 for the n used here).
  std::uint32_t below(std::uint32_t n) { return std::uint32_t((next() >> 32) * n >> 32); }

 private:
  std::uint64_t s_;
};

/// Lehmer / MINSTD (Park-Miller): the PRNG a token carries in its payload, so routing is a
/// pure function of the token and never of scheduling.
constexpr std::uint64_t minstd_next(std::uint64_t s) { return s * 48271 % 2147483647; }
constexpr std::uint64_t minstd_seed(std::uint64_t x) { return splitmix64(x) % 2147483646 + 1; }

}  // namespace twinsched
