// Checksums and hashes of the trace format: CRC-32C for integrity, a 64-bit mix for identities.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/trace_event.hpp"

namespace twinsched::traces {

/// CRC-32C (Castagnoli), as in iSCSI/ext4: crc32c("123456789") == 0xe3069283.
/// `seed` continues a previous call's result over concatenated data.
std::uint32_t crc32c(const void* data, std::size_t n, std::uint32_t seed = 0);

/// 64-bit hash of a byte string (FNV-1a folded through a finalizer): names a scenario text.
std::uint64_t hash64(std::string_view s);

/// One step of an order-sensitive running hash (the per-lane event hash).
inline std::uint64_t hash_step(std::uint64_t h, std::uint64_t x) {
  std::uint64_t z = (h ^ x) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/// One event's contribution to its lane's event hash: every field except the worker (the
/// lane itself), and its position in the lane. The lane hash is the wrapping sum of these:
/// no dependency chain between events (the recorder's writer thread hashes at full speed),
/// still sensitive to any change of any field and to order (through `index`).
inline std::uint64_t event_hash_term(const trace_event& e, std::uint64_t index) {
  const std::uint64_t m = (e.message << 29) | (e.message >> 35);
  std::uint64_t x =
      (e.time_ns ^ m ^ (std::uint64_t(e.kind) << 59)) * 0x9e3779b97f4a7c15ull +
      (((std::uint64_t(e.actor) << 32) | e.other) ^ (index * 0xbf58476d1ce4e5b9ull)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace twinsched::traces
