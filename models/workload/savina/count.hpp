// Savina's Count: what each message adds to the checksum, the sequential reference and Savina's
// result check, shared by the workload (count.cpp) and its test.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_count {

/// The messages of Savina's Count: the injected start (Savina's first IncrementMessage, to the
/// producer), the increments the producer sends the counter, the retrieve that asks for the
/// count, and the result the counter answers with.
enum tag : std::uint32_t { start = 1, increment, retrieve, result };

/// What one message adds to the checksum: its kind and its number (the increment's, else 0).
constexpr std::uint64_t value(std::uint32_t t, std::uint64_t i) { return splitmix64((std::uint64_t(t) << 40) ^ i); }

/// Messages a correct run processes: the start, the increments, the retrieve and the result.
constexpr std::uint64_t messages(std::uint64_t n) { return n + 3; }

constexpr std::uint64_t reference_checksum(std::uint64_t n) {
  std::uint64_t s = value(start, 0) + value(retrieve, 0) + value(result, n);
  for (std::uint64_t i = 0; i < n; ++i) s += value(increment, i);
  return s;
}

/// Savina's check: the producer got its answer and the counter counted every increment before
/// the retrieve.
constexpr bool result_ok(std::uint64_t n, bool answered, std::uint64_t count) { return answered && count == n; }

}  // namespace twinsched::savina_count
