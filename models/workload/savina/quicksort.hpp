// Savina's QuickSort: the sort, its input and its check, shared by its workload and its check test.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_quicksort {

using values = std::vector<std::uint64_t>;

/// Savina's randomlyInitArray: n values below m, from the workload's seed.
inline values random_input(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  rng r(seed);
  values v(n);
  for (auto& x : v) x = r.next() % m;
  return v;
}

/// Savina's filterLessThan, filterEqualsTo, filterGreaterThan: the values of `data` that
/// compare so with the pivot, in their order. Each adds the elements it examined to `units`.
template <class Keep>
values filter(const values& data, std::uint64_t& units, Keep keep) {
  values out;
  out.reserve(data.size());
  for (std::uint64_t x : data)
    if (keep(x)) out.push_back(x);
  units += data.size();
  return out;
}
inline values less_than(const values& d, std::uint64_t p, std::uint64_t& u) {
  return filter(d, u, [p](std::uint64_t x) { return x < p; });
}
inline values equal_to(const values& d, std::uint64_t p, std::uint64_t& u) {
  return filter(d, u, [p](std::uint64_t x) { return x == p; });
}
inline values greater_than(const values& d, std::uint64_t p, std::uint64_t& u) {
  return filter(d, u, [p](std::uint64_t x) { return x > p; });
}

/// `a` followed by `b`, as Savina's addAll into a new list (its copies counted in `units`).
inline values concat(const values& a, const values& b, std::uint64_t& units) {
  values out;
  out.reserve(a.size() + b.size());
  out.insert(out.end(), a.begin(), a.end());
  out.insert(out.end(), b.begin(), b.end());
  units += out.size();
  return out;
}

/// Savina's quicksortSeq: the middle element as pivot, the three filters, both sides sorted
/// recursively, the pieces joined into a new list.
inline values sort_sequentially(const values& data, std::uint64_t& units) {
  if (data.size() < 2) return data;
  const std::uint64_t pivot = data[data.size() / 2];
  const values left = sort_sequentially(less_than(data, pivot, units), units);
  const values equal = equal_to(data, pivot, units);
  const values right = sort_sequentially(greater_than(data, pivot, units), units);
  return concat(concat(left, equal, units), right, units);
}

/// Savina's checkSorted, and that nothing was lost, added or changed: the output is the input sorted.
inline bool result_ok(values input, const values& output) {
  std::sort(input.begin(), input.end());
  return output == input;
}

/// What an actor adds to its accumulator for a list to sort, and for a sorted side from a child.
inline std::uint64_t content(const values& v) {
  std::uint64_t sum = 0;
  for (std::uint64_t x : v) sum += x;
  return splitmix64(v.size()) ^ sum;
}
constexpr std::uint64_t sort_print(std::uint64_t content) { return splitmix64(content); }
constexpr std::uint64_t result_print(std::uint64_t content, bool left) { return splitmix64(~content ^ left); }

/// The actor tree computed sequentially: a list of `threshold` values or more is split around
/// its middle value into a child for the smaller and one for the larger values; a shorter one
/// is sorted by its actor. Every actor gets its list (the root's injected) and answers its
/// parent (all but the root).
struct reference {
  std::uint64_t actors = 0, print = 0;
  std::uint64_t messages() const { return 2 * actors - 1; }
};
inline void split_sequentially(const values& data, std::uint64_t threshold, int side, reference& r) {
  ++r.actors;
  const std::uint64_t c = content(data);
  r.print += sort_print(c) + (side ? result_print(c, side < 0) : 0);
  if (data.size() < threshold) return;
  std::uint64_t units = 0;
  const std::uint64_t pivot = data[data.size() / 2];
  split_sequentially(less_than(data, pivot, units), threshold, -1, r);
  split_sequentially(greater_than(data, pivot, units), threshold, 1, r);
}

}  // namespace twinsched::savina_quicksort
