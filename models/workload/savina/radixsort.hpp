// Savina's RadixSort: its input and the check of what reached the validation actor, shared by the
// workload (radixsort.cpp) and its test.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_radixsort {

/// The source's n values below m (Savina draws |nextLong()| % M from its own generator; here the
/// workload's seed drives models/rng.hpp).
inline std::vector<std::uint64_t> input(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::uint64_t> v(n);
  for (auto& x : v) x = (r.next() >> 1) % m;
  return v;
}

/// The sort stages: one per bit of m/2, m/2 down to 1 (Savina's radix halves until it is 0).
inline std::uint32_t stages(std::uint64_t m) { return std::uint32_t(std::bit_width(m / 2)); }

/// Savina's validation (each value at least the one before) and more: what arrived is the input,
/// every value once, in sorted order.
inline bool sorted_permutation_ok(const std::vector<std::uint64_t>& out, std::vector<std::uint64_t> in) {
  std::sort(in.begin(), in.end());
  return out == in;
}

}  // namespace twinsched::savina_radixsort
