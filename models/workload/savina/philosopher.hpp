// Savina's Philosophers (dining philosophers with an arbitrator): the message count, the checksum
// terms and the result check, shared by the workload (philosopher.cpp) and its test.
#pragma once
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_philosopher {

/// The messages: a philosopher's Start (injected first, then to itself), its Hungry, Done and
/// Exit to the arbitrator, and the arbitrator's Eat or Denied.
enum tag : std::uint32_t { start = 1, hungry, denied, eat, done, exit };

/// Messages a correct run processes: per philosopher `rounds` Starts, Hungrys, Eats and Dones and
/// one Exit, and for each denial a Denied and the Hungry that retries. Denials depend on the
/// interleaving; the run counts them at the arbitrator.
constexpr std::uint64_t messages(std::uint64_t philosophers, std::uint64_t rounds, std::uint64_t denials) {
  return philosophers * (4 * rounds + 1) + 2 * denials;
}

/// Checksum terms: every message but the interleaving's (Hungry, Denied) adds its kind, its
/// philosopher and its round.
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t id, std::uint64_t round) {
  return splitmix64((std::uint64_t(t) << 56) ^ (id << 28) ^ round);
}

constexpr std::uint64_t reference_checksum(std::uint64_t philosophers, std::uint64_t rounds) {
  std::uint64_t s = 0;
  for (std::uint64_t i = 0; i < philosophers; ++i) {
    s += print(exit, i, 0);
    for (std::uint64_t r = 0; r < rounds; ++r)
      s += print(start, i, r) + 2 * print(eat, i, r) + print(done, i, r);  // Eat: granted and received
  }
  return s;
}

/// What the run recorded, for the check.
struct outcome {
  std::vector<std::uint64_t> eaten;  ///< rounds each philosopher ate
  std::uint64_t denials_sent = 0, denials_received = 0;
  std::uint64_t bad_releases = 0;  ///< a Done for a fork its sender did not hold
  std::uint64_t forks_held = 0;    ///< forks still held at the end
  std::uint64_t exited = 0;        ///< Exits the arbitrator counted
};

/// The run's own check (Savina's has none): every philosopher ate its rounds, every denial
/// reached its philosopher, no fork was granted to two philosophers at once (a release always
/// came from the fork's holder) and every fork is free at the end.
inline bool result_ok(std::uint64_t philosophers, std::uint64_t rounds, const outcome& o) {
  if (o.eaten.size() != philosophers || o.exited != philosophers) return false;
  for (std::uint64_t e : o.eaten)
    if (e != rounds) return false;
  return o.denials_sent == o.denials_received && o.bad_releases == 0 && o.forks_held == 0;
}

}  // namespace twinsched::savina_philosopher
