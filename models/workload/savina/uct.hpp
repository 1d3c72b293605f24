// Savina's UCT (unbalanced cobwebbed tree): the check its workload and its check test share.
#pragma once
#include <cmath>
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_uct {

/// Savina's getNextNormal: a positive integer from a normal distribution (Box-Muller over the
/// root's generator).
inline std::uint64_t next_normal(rng& r, double mean, double dev) {
  for (;;) {
    const double u1 = (double(r.next() >> 11) + 1) * 0x1.0p-53, u2 = double(r.next() >> 11) * 0x1.0p-53;
    const double g = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
    const long long v = std::llround(g * dev + mean);
    if (v > 0) return std::uint64_t(v);
  }
}

/// What the tree looked like when the run ended, gathered by walking it.
struct outcome {
  bool root_done = false;          ///< the root ran out of room and ended the search
  std::uint64_t size = 0;          ///< the root's count: itself and the children it granted
  std::uint64_t nodes = 0;         ///< node actors that exist (a grant to a node already terminated makes none)
  std::uint64_t height = 0;        ///< the root's height
  std::uint64_t deepest = 0;       ///< the greatest height of a node
  bool terminated_once = false;    ///< every node got exactly one terminate
  bool traversals_ok = false;      ///< every node got at most one traverse, and only if its parent did
};

/// The tree grows by grants the root hands out in the order requests reach it, so its shape
/// depends on the interleaving; what every correct run has: the root stopped at the limit,
/// every node it granted exists at most once (the root's count, a multiple of `binomial` above
/// the root, bounds them), the termination reached every node once, the traversal went only
/// from a traversed parent, and no node is deeper than the root's height.
inline bool result_ok(std::uint64_t max_nodes, std::uint64_t binomial, const outcome& o) {
  return o.root_done && o.size <= max_nodes && o.size + binomial > max_nodes && (o.size - 1) % binomial == 0 &&
         o.nodes <= o.size - 1 && o.nodes % binomial == 0 && o.nodes >= binomial && o.terminated_once &&
         o.traversals_ok && o.deepest <= o.height;
}

}  // namespace twinsched::savina_uct
