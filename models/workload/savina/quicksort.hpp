// Savina's QuickSort: the sort, its input and its check, shared by its workload and its check test.
#pragma once
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "../../rng.hpp"
#include "pseudo_random.hpp"

namespace twinsched::savina_quicksort {

using values = std::vector<std::uint64_t>;

/// Savina's randomlyInitArray: n values of PseudoRandom(seed), each mod m. They are below 65536
/// and the generator's period is 65536, so at Savina's n = 10^6 each value comes some 15 times:
/// the values equal to a pivot stay with its actor, and the tree is Savina's.
inline values random_input(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  savina::pseudo_random r(seed);
  values v;
  v.reserve(n);
  for (std::uint64_t i = 0; i < n; ++i) v.push_back(r.next_long() % m);
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

/// Savina's checkSorted, and that nothing was lost, added or changed: the output is sorted and
/// holds the input's values as often as the input does, compared by the sum of a 64-bit mix of
/// each value (a multiset hash: a value lost, added or changed moves it, except for a chance of
/// 2^-64), in two linear passes where sorting a copy of the input costs n log n.
inline bool result_ok(const values& input, const values& output) {
  if (output.size() != input.size() || !std::is_sorted(output.begin(), output.end())) return false;
  std::uint64_t in = 0, out = 0;
  for (std::uint64_t x : input) in += splitmix64(x);
  for (std::uint64_t x : output) out += splitmix64(x);
  return in == out;
}

/// What an actor adds to its accumulator for a list to sort, and for a sorted side from a child.
inline std::uint64_t content(std::span<const std::uint64_t> v) {
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
namespace detail {
/// The node whose list is in[b, e): its prints, then its sides filtered (stably, as the actors'
/// filters are) into out[b, ...), where they recurse with the buffers' roles swapped. Two buffers
/// for the whole tree: the actors' filters allocate a list per side, which at n = 10^6 made the
/// reference cost more in page faults than in comparisons.
inline void split_range(std::uint64_t* in, std::uint64_t* out, std::size_t b, std::size_t e, std::uint64_t threshold,
                        int side, reference& r) {
  ++r.actors;
  const std::uint64_t c = content({in + b, in + e});
  r.print += sort_print(c) + (side ? result_print(c, side < 0) : 0);
  if (e - b < threshold) return;
  const std::uint64_t pivot = in[b + (e - b) / 2];
  std::size_t k = b;
  for (std::size_t i = b; i < e; ++i)
    if (in[i] < pivot) out[k++] = in[i];
  const std::size_t mid = k;
  for (std::size_t i = b; i < e; ++i)
    if (in[i] > pivot) out[k++] = in[i];
  split_range(out, in, b, mid, threshold, -1, r);
  split_range(out, in, mid, k, threshold, 1, r);
}
}  // namespace detail

/// The tree for the root's list `data` (side 0: the root).
inline void split_sequentially(values data, std::uint64_t threshold, int side, reference& r) {
  values scratch(data.size());
  detail::split_range(data.data(), scratch.data(), 0, data.size(), threshold, side, r);
}

}  // namespace twinsched::savina_quicksort
