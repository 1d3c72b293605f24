// Savina's CigSmokers (cigarette smokers): the arbiter's random choices, the message count, the
// checksum terms and the result check, shared by the workload (cigsmok.cpp) and its test.
#pragma once
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_cigsmok {

/// The messages: the arbiter's Start, its StartSmoking to a smoker, the smoker's StartedSmoking
/// back, and the arbiter's Exit to every smoker.
enum tag : std::uint32_t { arbiter_start = 1, start_smoking, started_smoking, exit };

/// One round's choice: the smoker the arbiter wakes and how long it smokes (Savina's
/// nextInt(1000) + 10 busy-wait iterations), from a stream seeded by the workload's seed.
struct choice {
  std::uint32_t smoker;
  std::uint64_t iterations;
};
inline rng arbiter_rng(std::uint64_t seed) { return rng(splitmix64(seed ^ 0xc16a)); }
inline choice next_choice(rng& r, std::uint32_t smokers) { return {r.below(smokers), r.below(1000) + 10}; }

/// Messages a correct run processes: the Start, a StartSmoking and a StartedSmoking per round, an
/// Exit per smoker.
constexpr std::uint64_t messages(std::uint64_t rounds, std::uint64_t smokers) { return 1 + 2 * rounds + smokers; }

/// Checksum terms: a smoker adds each round it smoked (round, smoker, length) and its Exit; the
/// arbiter each StartedSmoking (round).
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t who, std::uint64_t x = 0) {
  return splitmix64((std::uint64_t(t) << 56) ^ (who << 24) ^ x);
}
inline std::uint64_t round_print(std::uint64_t round, const choice& c) {
  return print(start_smoking, round, c.smoker) + c.iterations;
}

/// Rounds each smoker smokes in a correct run, and the run's checksum.
inline std::vector<std::uint64_t> smoked(std::uint64_t rounds, std::uint32_t smokers, std::uint64_t seed) {
  std::vector<std::uint64_t> n(smokers);
  rng r = arbiter_rng(seed);
  for (std::uint64_t k = 0; k < rounds; ++k) ++n[next_choice(r, smokers).smoker];
  return n;
}
inline std::uint64_t reference_checksum(std::uint64_t rounds, std::uint32_t smokers, std::uint64_t seed) {
  std::uint64_t s = 0;
  rng r = arbiter_rng(seed);
  for (std::uint64_t k = 0; k < rounds; ++k) s += round_print(k, next_choice(r, smokers)) + print(started_smoking, k);
  for (std::uint64_t i = 0; i < smokers; ++i) s += print(exit, i);
  return s;
}

/// The run's own check (Savina's has none): the arbiter ran every round, each smoker smoked the
/// rounds the arbiter's choices give it, and every smoker got its Exit.
inline bool result_ok(std::uint64_t rounds, const std::vector<std::uint64_t>& expected, std::uint64_t arbiter_rounds,
                      const std::vector<std::uint64_t>& smoked_by, std::uint64_t exited) {
  return arbiter_rounds == rounds && smoked_by == expected && exited == expected.size();
}

}  // namespace twinsched::savina_cigsmok
