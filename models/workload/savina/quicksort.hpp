// Savina's QuickSort: the sort, its input and its check, shared by its workload and its check test.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "../../huge_pages.hpp"
#include "../../rng.hpp"
#include "pseudo_random.hpp"

namespace twinsched::savina_quicksort {

/// Lists are large arrays written once through (a filter sizes its output for every value it
/// might keep and writes each in turn): huge pages from 2 MiB, elements left uninitialized.
using values = std::vector<std::uint64_t, big_array_allocator<std::uint64_t>>;

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

namespace detail {
/// The values of in[b, e) that `keep` takes, written in order from out[k] on, their sum added
/// to `sum`; returns the place after the last. Without a branch: every value is written at the
/// next free place, which only moves on past a kept one (random input would mispredict a
/// branch on every other value). Writes one place past the last kept value, so there must be
/// one (k <= b, or the caller keeps a value out). A caller that ignores `sum` pays nothing
/// for it: inlined, the add is dead.
template <class Keep>
std::size_t keep_into(const std::uint64_t* in, std::size_t b, std::size_t e, std::uint64_t* out, std::size_t k,
                      std::uint64_t& sum, Keep keep) {
  for (std::size_t i = b; i < e; ++i) {
    const std::uint64_t x = in[i];
    const bool kept = keep(x);
    out[k] = x;
    k += kept;
    sum += x & (0 - std::uint64_t(kept));
  }
  return k;
}
}  // namespace detail

/// Savina's filterLessThan, filterEqualsTo, filterGreaterThan: the values of `data` that
/// compare so with the pivot, in their order. Each adds the elements it examined to `units`.
template <class Keep>
values filter(const values& data, std::uint64_t& units, Keep keep) {
  values out(data.size());
  std::uint64_t unused = 0;
  out.resize(detail::keep_into(data.data(), 0, data.size(), out.data(), 0, unused, keep));
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

/// A list's values as a multiset: the sum of a 64-bit mix of each (a value lost, added or
/// changed moves it, except for a chance of 2^-64), one linear pass where comparing with a
/// sorted copy costs n log n.
inline std::uint64_t multiset_print(std::span<const std::uint64_t> v) {
  std::uint64_t sum = 0;
  for (std::uint64_t x : v) sum += splitmix64(x);
  return sum;
}

/// Savina's checkSorted, and that nothing was lost, added or changed: the output is sorted and
/// holds the values of the input (`n` of them, `input_print` their multiset_print) as often as
/// the input does.
inline bool result_ok(std::size_t n, std::uint64_t input_print, const values& output) {
  return output.size() == n && std::is_sorted(output.begin(), output.end()) && multiset_print(output) == input_print;
}
inline bool result_ok(const values& input, const values& output) {
  return result_ok(input.size(), multiset_print(input), output);
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
/// The node whose list is in[b, e), of content `c`: its prints, then its sides filtered (stably,
/// as the actors' filters are) into out[b, ...), each side's content summed on the way, where
/// they recurse with the buffers' roles swapped. Two buffers for the whole tree and one pass per
/// side: the actors' filters allocate a list per side, which at n = 10^6 made the reference cost
/// more in page faults than in comparisons.
inline void split_range(std::uint64_t* in, std::uint64_t* out, std::size_t b, std::size_t e, std::uint64_t c,
                        std::uint64_t threshold, int side, reference& r) {
  ++r.actors;
  r.print += sort_print(c) + (side ? result_print(c, side < 0) : 0);
  if (e - b < threshold) return;
  const std::uint64_t pivot = in[b + (e - b) / 2];
  std::uint64_t low = 0, high = 0;
  const std::size_t mid = keep_into(in, b, e, out, b, low, [pivot](std::uint64_t x) { return x < pivot; });
  const std::size_t end = keep_into(in, b, e, out, mid, high, [pivot](std::uint64_t x) { return x > pivot; });
  split_range(out, in, b, mid, splitmix64(mid - b) ^ low, threshold, -1, r);
  split_range(out, in, mid, end, splitmix64(end - mid) ^ high, threshold, 1, r);
}
}  // namespace detail

/// The tree for the root's list `data` (side 0: the root).
inline void split_sequentially(std::span<const std::uint64_t> data, std::uint64_t threshold, int side, reference& r) {
  values in(data.begin(), data.end()), out(data.size());
  detail::split_range(in.data(), out.data(), 0, data.size(), content(data), threshold, side, r);
}

}  // namespace twinsched::savina_quicksort
