// Savina's APSP (blocked Floyd-Warshall): the graph, one block's iteration and the sequential
// Floyd-Warshall the result is checked against, shared by the workload (apsp.cpp) and its test.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_apsp {

/// Savina's graph: n nodes, every pair joined both ways by an edge of weight 1..w (Savina seeds
/// its own generator with n; here the workload's seed drives models/rng.hpp). Row by row, n x n.
inline std::vector<std::int64_t> graph(std::uint32_t n, std::uint32_t w, std::uint64_t seed) {
  rng r(seed);
  std::vector<std::int64_t> g(std::size_t(n) * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) g[i * n + j] = g[j * n + i] = r.below(w) + 1;
  return g;
}

/// A b x b block of distances as one iteration left it, shared by its owner and the neighbors it
/// was sent to (Savina sends one array to all of them): every holder keeps a reference of its own
/// and the last to let go frees it. A message carries a reference made for its receiver.
struct block {
  std::vector<std::int64_t> d;
};
using block_ref = std::shared_ptr<const block>;

/// One Floyd-Warshall iteration of a block, as Savina's performComputation: for pivot k,
/// out[i][j] = min(prev[i][j], D[gi][k] + D[k][gj]), where `col_k` is the block of this block's
/// rows that holds column k (at local column kc) and `row_k` the block of its columns that holds
/// row k (at local row kr), each as the previous iteration left it. b*b relaxations.
inline void relax(const std::int64_t* prev, const std::int64_t* col_k, std::uint32_t kc, const std::int64_t* row_k,
                  std::uint32_t kr, std::int64_t* out, std::uint32_t b) {
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = 0; j < b; ++j)
      out[i * b + j] = std::min(prev[i * b + j], col_k[i * b + kc] + row_k[kr * b + j]);
}

/// The b x b block at block row `bi`, block column `bj` of an n x n matrix.
inline std::vector<std::int64_t> block_of(const std::vector<std::int64_t>& m, std::uint32_t n, std::uint32_t b,
                                          std::uint32_t bi, std::uint32_t bj) {
  std::vector<std::int64_t> out(std::size_t(b) * b);
  for (std::size_t i = 0; i < b; ++i)
    for (std::size_t j = 0; j < b; ++j) out[i * b + j] = m[(bi * b + i) * std::size_t(n) + bj * b + j];
  return out;
}

/// Floyd-Warshall on the whole matrix, one thread: the reference.
inline std::vector<std::int64_t> floyd_warshall(std::vector<std::int64_t> d, std::uint32_t n) {
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i * n + j] = std::min(d[i * n + j], d[i * n + k] + d[k * n + j]);
  return d;
}

/// The blocks' distances, put together, are the reference's.
inline bool distances_ok(const std::vector<std::int64_t>& result, const std::vector<std::int64_t>& reference) {
  return result == reference;
}

}  // namespace twinsched::savina_apsp
