// CRC-32C by slicing-by-8 tables built at first use, and the 64-bit text hash.
#include "checksum.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace twinsched::traces {
namespace {

using table_t = std::array<std::array<std::uint32_t, 256>, 8>;

table_t make_tables() {
  table_t t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
    t[0][i] = c;
  }
  for (std::uint32_t i = 0; i < 256; ++i)
    for (std::size_t s = 1; s < 8; ++s) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
  return t;
}

const table_t& tables() {
  static const table_t t = make_tables();
  return t;
}

#if defined(__x86_64__)
/// The SSE4.2 crc32 instruction computes CRC-32C: 8 bytes per instruction.
__attribute__((target("sse4.2"))) std::uint32_t crc32c_hw(const std::uint8_t* p, std::size_t n, std::uint32_t seed) {
  std::uint64_t c = ~seed;
  while (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    c = _mm_crc32_u64(c, w);
    p += 8;
    n -= 8;
  }
  std::uint32_t c32 = std::uint32_t(c);
  while (n--) c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}

bool has_crc_instruction() {
  static const bool yes = __builtin_cpu_supports("sse4.2");
  return yes;
}
#endif

}  // namespace

std::uint32_t crc32c(const void* data, std::size_t n, std::uint32_t seed) {
#if defined(__x86_64__)
  if (has_crc_instruction()) return crc32c_hw(static_cast<const std::uint8_t*>(data), n, seed);
#endif
  const table_t& t = tables();
  const auto* p = static_cast<const std::uint8_t*>(data);
  std::uint32_t c = ~seed;
  while (n >= 8) {
    std::uint32_t lo =
        c ^ (std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^ t[3][p[4]] ^ t[2][p[5]] ^
        t[1][p[6]] ^ t[0][p[7]];
    p += 8;
    n -= 8;
  }
  while (n--) c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
  return ~c;
}

std::uint64_t hash64(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return hash_step(h, s.size());
}

}  // namespace twinsched::traces
