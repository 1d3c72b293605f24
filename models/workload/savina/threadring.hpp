// Savina's Thread Ring: what each message adds to the checksum, the sequential reference and the
// result check, shared by the workload (threadring.cpp) and its test.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_threadring {

/// The messages of Savina's ThreadRing: the data message that gives an actor its successor, the
/// ping that goes round the ring counting down the hops left, and the exit that goes round once
/// when the ping is done, counting down the actors left to stop.
enum tag : std::uint32_t { data = 1, ping, exit };

/// What message `t` carrying `k` adds to the checksum when actor `actor` receives it.
constexpr std::uint64_t value(std::uint64_t actor, std::uint32_t t, std::uint64_t k) {
  return splitmix64((actor << 40) ^ (std::uint64_t(t) << 36) ^ k);
}

/// Messages a correct run processes: a data message to each actor, the pings from `hops` down to
/// 0, and the exits from `actors` down to 0, of which the last reaches the actor that took the
/// first and has stopped (a dead letter, as in Savina).
constexpr std::uint64_t messages(std::uint64_t actors, std::uint64_t hops) { return actors + (hops + 1) + (actors + 1); }

/// The checksum of a correct run: ping k is received by actor (hops - k) mod actors; the exits
/// start after the actor that took ping 0.
constexpr std::uint64_t reference_checksum(std::uint64_t actors, std::uint64_t hops) {
  std::uint64_t s = 0;
  for (std::uint64_t i = 0; i < actors; ++i) s += value(i, data, 0);
  for (std::uint64_t k = 0; k <= hops; ++k) s += value((hops - k) % actors, ping, k);
  const std::uint64_t first = (hops + 1) % actors;
  for (std::uint64_t i = 0; i < actors; ++i) s += value((first + i) % actors, exit, actors - i);
  return s;
}

/// Savina has no check; this one: the ring took every hop and every actor stopped.
constexpr bool result_ok(std::uint64_t actors, std::uint64_t hops, std::uint64_t pings, std::uint64_t stopped) {
  return pings == hops + 1 && stopped == actors;
}

}  // namespace twinsched::savina_threadring
