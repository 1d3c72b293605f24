// Savina's Big: each actor's random targets, what each message adds to the checksum, the
// sequential reference and the result check, shared by the workload (big.cpp) and its test.
#pragma once
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_big {

/// The messages of Savina's Big: the neighbour table every actor and the sink receive first, a
/// ping and the pong that answers it (each naming its sender's index), the exit an actor sends
/// the sink after its last pong, and the exit the sink then sends every actor.
enum tag : std::uint32_t { neighbors = 1, ping, pong, exit };

/// The sender a starting pong names: nobody (Savina's PongMessage(-1)).
inline constexpr std::uint64_t nobody = ~0ull;

/// Actor `id`'s random numbers: its own stream from the run's seed, so its targets depend on
/// neither the interleaving nor the other actors.
inline rng stream(std::uint64_t seed, std::uint64_t id) { return rng(splitmix64(seed) + id); }

/// What message `t` naming `k` adds to the checksum when actor `actor` (the sink: `actors`)
/// receives it.
constexpr std::uint64_t value(std::uint64_t actor, std::uint32_t t, std::uint64_t k) {
  return splitmix64((actor << 40) ^ (std::uint64_t(t) << 36) ^ k);
}

/// Messages a correct run processes: the neighbour tables (one to the sink), the starting pongs,
/// each actor's pings and their pongs, and the exits to and from the sink.
constexpr std::uint64_t messages(std::uint64_t actors, std::uint64_t pings) { return 2 * actors * pings + 4 * actors + 1; }

/// The checksum of a correct run: each actor's pings drawn from its stream, as it draws them.
inline std::uint64_t reference_checksum(std::uint64_t actors, std::uint64_t pings, std::uint64_t seed) {
  std::uint64_t s = value(actors, neighbors, 0) + actors * value(actors, exit, 0);
  for (std::uint64_t i = 0; i < actors; ++i) {
    s += value(i, neighbors, 0) + value(i, pong, nobody) + value(i, exit, 0);
    rng r = stream(seed, i);
    for (std::uint64_t k = 0; k < pings; ++k) {
      const std::uint64_t target = r.below(std::uint32_t(actors));
      s += value(target, ping, i) + value(i, pong, target);
    }
  }
  return s;
}

/// Savina's check, that every pong came from the actor last pinged, and: each actor received a
/// pong for each of its pings plus the starting one, the sink heard from every actor, and every
/// actor stopped.
inline bool result_ok(std::uint64_t actors, std::uint64_t pings, const std::vector<std::uint64_t>& pongs,
                      std::uint64_t wrong_pongs, std::uint64_t sink_exits, std::uint64_t stopped) {
  if (pongs.size() != actors) return false;
  for (std::uint64_t p : pongs)
    if (p != pings + 1) return false;
  return wrong_pongs == 0 && sink_exits == actors && stopped == actors;
}

}  // namespace twinsched::savina_big
