// Savina's Fork Join (actor creation): what each message adds to the checksum, the sequential
// reference and the result check, shared by the workload (fjcreate.cpp) and its test.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_fjcreate {

/// What the message to the `i`th actor created adds to the checksum.
constexpr std::uint64_t value(std::uint64_t i) { return splitmix64(i); }

/// Messages a correct run processes: the injected start (to the actor that creates in Savina's
/// main thread's place) and one to each actor created.
constexpr std::uint64_t messages(std::uint64_t actors) { return actors + 1; }

constexpr std::uint64_t reference_checksum(std::uint64_t actors) {
  std::uint64_t s = 0;
  for (std::uint64_t i = 0; i < actors; ++i) s += value(i);
  return s;
}

/// Every actor was created, processed its one message (each computation came out positive) and
/// stopped.
constexpr bool result_ok(std::uint64_t actors, std::uint64_t created, std::uint64_t processed, std::uint64_t bad_results) {
  return created == actors && processed == actors && bad_results == 0;
}

}  // namespace twinsched::savina_fjcreate
