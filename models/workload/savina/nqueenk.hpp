// Savina's NQueens-K: the board arithmetic its workload and its check test share.
#pragma once
#include <algorithm>
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_nqueenk {

/// Savina's table: solutions of the n-queens problem for n = 1..20.
inline constexpr std::uint64_t solutions[] = {1,         0,          0,           2,           10,
                                              4,         40,         92,          352,         724,
                                              2680,      14200,      73712,       365596,      2279184,
                                              14772512,  95815104,   666090624,   4968057848,  39029188884};
inline constexpr std::uint64_t max_size = 20;
/// A board in a message: a queen's column in 5 bits each, 12 of them in a word.
inline constexpr std::uint64_t max_threshold = 12;

constexpr std::uint64_t pack(const std::uint8_t* cols, std::uint64_t depth) {
  std::uint64_t w = 0;
  for (std::uint64_t i = 0; i < depth; ++i) w |= std::uint64_t(cols[i]) << (5 * i);
  return w;
}
constexpr void unpack(std::uint64_t w, std::uint64_t depth, std::uint8_t* cols) {
  for (std::uint64_t i = 0; i < depth; ++i) cols[i] = std::uint8_t(w >> (5 * i) & 31);
}

/// Savina's boardValid: no two of the first `n` queens share a column or a diagonal. Checks
/// every pair, as Savina does, and adds the pairs it compared to `pairs` (the kernel's units).
inline bool board_valid(std::uint64_t n, const std::uint8_t* a, std::uint64_t& pairs) {
  for (std::uint64_t i = 0; i < n; ++i) {
    const int p = a[i];
    for (std::uint64_t j = i + 1; j < n; ++j) {
      ++pairs;
      const int q = a[j], d = int(j - i);
      if (q == p || q == p - d || q == p + d) return false;
    }
  }
  return true;
}

/// Savina's nqueensKernelSeq: calls `found` for each solution below the board's first `depth` queens.
template <class Found>
void search(std::uint64_t size, std::uint8_t* b, std::uint64_t depth, std::uint64_t& pairs, Found&& found) {
  if (depth == size) return found();
  for (std::uint64_t i = 0; i < size; ++i) {
    b[depth] = std::uint8_t(i);
    if (board_valid(depth + 1, b, pairs)) search(size, b, depth + 1, pairs, found);
  }
}

/// Savina's validation: at least the limit (or every solution, when there are fewer) and no
/// more solutions than the board has.
constexpr bool result_ok(std::uint64_t size, std::uint64_t limit, std::uint64_t found) {
  const std::uint64_t all = solutions[size - 1];
  return found <= all && found >= std::min(limit, all);
}

/// What an actor adds to its accumulator for each kind of message it receives.
constexpr std::uint64_t master_work_print(std::uint64_t board, std::uint64_t depth) {
  return splitmix64(board ^ depth << 60);
}
constexpr std::uint64_t worker_work_print(std::uint64_t board, std::uint64_t depth) {
  return splitmix64(~(board ^ depth << 60));
}
constexpr std::uint64_t result_print = splitmix64(1), done_print = splitmix64(2), stop_print = splitmix64(3),
                        stopped_print = splitmix64(4), start_print = splitmix64(5);

/// A search that runs to its end (the limit is never reached), computed sequentially: a work
/// message for the empty board and for every valid board of at most `threshold` queens, each
/// sent by a worker to the master (all but the root's) and by the master to a worker, and
/// answered by a done; a result a solution; a stop to each worker and its reply; the start.
struct reference {
  std::uint64_t messages = 0, print = 0;
};
inline reference run_sequentially(std::uint64_t size, std::uint64_t threshold, std::uint64_t workers) {
  reference r;
  const std::uint64_t all = solutions[size - 1];
  r.messages = 1 + all + 2 * workers;
  r.print = start_print + all * result_print + workers * (stop_print + stopped_print);
  std::uint8_t b[max_size] = {};
  std::uint64_t pairs = 0;
  auto work = [&](auto& self, std::uint64_t depth) -> void {
    const std::uint64_t w = pack(b, depth);
    r.messages += depth ? 3 : 2;
    r.print += worker_work_print(w, depth) + done_print + (depth ? master_work_print(w, depth) : 0);
    if (depth == size || depth >= threshold) return;
    for (std::uint64_t i = 0; i < size; ++i) {
      b[depth] = std::uint8_t(i);
      if (board_valid(depth + 1, b, pairs)) self(self, depth + 1);
    }
  };
  work(work, 0);
  return r;
}

}  // namespace twinsched::savina_nqueenk
