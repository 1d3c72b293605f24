// Savina's Fork Join (throughput): the work each message does, what it adds to the checksum, the
// sequential reference and the result check, shared by the workload (fjthrput.cpp) and its test.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_fjthrput {

/// Savina's performComputation: sin(theta) squared, which must be positive (its check that the
/// work was not optimized away).
inline bool compute(double theta) {
  const double s = std::sin(theta);
  return s * s > 0;
}

/// The angle Savina's actors compute with.
inline constexpr double theta = 37.2;

/// What message `i` to actor `actor` adds to the checksum.
constexpr std::uint64_t value(std::uint64_t actor, std::uint64_t i) { return splitmix64((actor << 40) ^ i); }

/// Messages a correct run processes: the injected start (to the actor that sends in Savina's
/// main thread's place) and `per_actor` to each actor.
constexpr std::uint64_t messages(std::uint64_t actors, std::uint64_t per_actor) { return actors * per_actor + 1; }

constexpr std::uint64_t reference_checksum(std::uint64_t actors, std::uint64_t per_actor) {
  std::uint64_t s = 0;
  for (std::uint64_t a = 0; a < actors; ++a)
    for (std::uint64_t i = 0; i < per_actor; ++i) s += value(a, i);
  return s;
}

/// Every actor processed exactly its messages, each computation came out positive, and each
/// actor stopped after its last, as Savina's actor exits.
inline bool result_ok(std::uint64_t per_actor, const std::vector<std::uint64_t>& processed, std::uint64_t bad_results,
                      std::uint64_t stopped) {
  for (std::uint64_t p : processed)
    if (p != per_actor) return false;
  return bad_results == 0 && stopped == processed.size();
}

}  // namespace twinsched::savina_fjthrput
