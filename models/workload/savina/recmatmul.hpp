// Savina's RecMatMul: the block a work message names, the leaf multiplication its workers run and
// Savina's check of the product, shared by the workload (recmatmul.cpp) and its test.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace twinsched::savina_recmatmul {

/// Savina's WorkMessage: C[srC.., scC..] += A[srA.., scA..] * B[srB.., scB..] over dim x dim blocks.
/// `depth` is Savina's priority, the recursion level, which also gives numBlocks (n*n / 4^depth).
struct block {
  std::uint32_t sr_a, sc_a, sr_b, sc_b, sr_c, sc_c, dim, depth;
};

/// A block in the two words of a message, 16 bits a field (n is at most 2^15).
inline std::uint64_t word_a(const block& w) {
  return w.sr_a | std::uint64_t(w.sc_a) << 16 | std::uint64_t(w.sr_b) << 32 | std::uint64_t(w.sc_b) << 48;
}
inline std::uint64_t word_b(const block& w) {
  return w.sr_c | std::uint64_t(w.sc_c) << 16 | std::uint64_t(w.dim) << 32 | std::uint64_t(w.depth) << 48;
}
inline block unpack(std::uint64_t a, std::uint64_t b) {
  auto f = [](std::uint64_t x, int i) { return std::uint32_t(x >> (16 * i) & 0xffff); };
  return {f(a, 0), f(a, 1), f(a, 2), f(a, 3), f(b, 0), f(b, 1), f(b, 2), f(b, 3)};
}

/// Savina's numBlocks: n*n quartered once a level.
inline std::uint64_t num_blocks(std::uint64_t n, std::uint32_t depth) { return n * n >> (2 * depth); }

/// The eight half-size products a block above the threshold splits into, in Savina's order:
/// for each quadrant of C, the two products along k.
inline void split(const block& w, block out[8]) {
  const std::uint32_t h = w.dim / 2;
  int i = 0;
  for (std::uint32_t ci : {0u, h})
    for (std::uint32_t cj : {0u, h})
      for (std::uint32_t k : {0u, h})
        out[i++] = {w.sr_a + ci, w.sc_a + k, w.sr_b + k, w.sc_b + cj, w.sr_c + ci, w.sc_c + cj, h, w.depth + 1};
}

/// One row of Savina's leaf: C[i][j] += A[i][scA+k] * B[srB+k][j] for each j of the block, n x n
/// matrices stored by rows. dim^2 multiply-adds. Each C[i][j] adds its products in Savina's order
/// (k ascending), so the sums are bit for bit Savina's; the loops run k outside j, so B and C are
/// walked along rows. Savina's j-outside-k walks B down a column: at n = 1024 each step is 8 KiB
/// apart, one cache miss per multiply-add, and every step maps to the same few cache sets.
inline void multiply_row(const double* a, const double* b, double* c, std::size_t n, const block& w, std::size_t i) {
  double* ci = c + i * n + w.sc_c;
  const double* ai = a + i * n + w.sc_a;
  for (std::size_t k = 0; k < w.dim; ++k) {
    const double aik = ai[k];
    const double* bk = b + (w.sr_b + k) * n + w.sc_c;
    for (std::size_t j = 0; j < w.dim; ++j) ci[j] += aik * bk[j];
  }
}

/// Savina's leaf, rows srC.. of the block: dim^3 multiply-adds.
inline void multiply(const double* a, const double* b, double* c, std::size_t n, const block& w) {
  for (std::size_t i = w.sr_c; i < w.sr_c + w.dim; ++i) multiply_row(a, b, c, n, w, i);
}

/// Savina's input: A[i][j] = i, B[i][j] = j.
inline void fill_inputs(std::vector<double>& a, std::vector<double>& b, std::size_t n) {
  a.assign(n * n, 0);
  b.assign(n * n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) a[i * n + j] = double(i), b[i * n + j] = double(j);
}

/// Savina's validation: with its inputs, C[i][j] is exactly n*i*j (integers well inside a double's
/// 53 bits, so every summation order gives it bit for bit).
inline bool product_ok(const std::vector<double>& c, std::size_t n) {
  if (c.size() != n * n) return false;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (c[i * n + j] != double(n) * double(i) * double(j)) return false;
  return true;
}

}  // namespace twinsched::savina_recmatmul
