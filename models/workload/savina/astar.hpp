// Savina's A* (GuidedSearch): its grid, its search, the search run sequentially and its check,
// shared by its workload and its check test.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

namespace twinsched::savina_astar {

/// java.util.Random's generator, a 48-bit linear congruence: Savina's grid comes from
/// Random(123456), and its busy wait draws from Math.random(), one such generator whose seed
/// every thread advances by compare-and-swap.
constexpr std::uint64_t java_mask = (std::uint64_t(1) << 48) - 1;
constexpr std::uint64_t java_scramble(std::uint64_t seed) { return (seed ^ 0x5DEECE66DULL) & java_mask; }
constexpr std::uint64_t java_step(std::uint64_t s) { return (s * 0x5DEECE66DULL + 0xBULL) & java_mask; }
/// Math.random() is nextDouble(), two draws of the generator; Savina's busyWait makes 100 calls.
constexpr std::uint32_t busy_draws = 200;

/// Savina's grid: size^3 nodes, node (i, j, k) numbered size^2 i + size j + k, the origin 0.
/// Each node links forward to some of its six neighbors one step up in one or two coordinates
/// (clamped at the far faces), drawn as Savina's initializeData draws them.
struct grid {
  std::uint32_t size = 0;
  std::vector<std::uint32_t> first, edges;  ///< node n's neighbors: edges[first[n]] .. edges[first[n + 1] - 1]

  std::uint32_t nodes() const { return size * size * size; }
  std::uint32_t coordinate(std::uint32_t n, int axis) const {
    return axis == 0 ? n / (size * size) : axis == 1 ? n / size % size : n % size;
  }
  /// Savina's targetNode: (0.8 size, 0.8 size, 0.8 size), rounded down.
  std::uint32_t target() const {
    const auto a = std::uint32_t(0.80 * size);
    return a * size * size + a * size + a;
  }
  /// Savina's distanceFrom, truncated to an int as setParent adds it.
  std::uint32_t step(std::uint32_t from, std::uint32_t to) const {
    std::int64_t sq = 0;
    for (int axis = 0; axis < 3; ++axis) {
      const std::int64_t d = std::int64_t(coordinate(to, axis)) - std::int64_t(coordinate(from, axis));
      sq += d * d;
    }
    return std::uint32_t(std::sqrt(double(sq)));
  }
  bool linked(std::uint32_t from, std::uint32_t to) const {
    return std::find(edges.begin() + first[from], edges.begin() + first[from + 1], to) != edges.begin() + first[from + 1];
  }
};

/// Savina's initializeData: for every node in id order (its HashMap's order, for grids of up to
/// 40^3 nodes: keys below 65536 hash to themselves), offsets (0,0,1) to (1,1,0) each added on a
/// nextBoolean of Random(123456), (1,1,0) always when nothing was added before it; a neighbor
/// that is the node itself or already linked (clamped at a face) is not added.
inline grid make_grid(std::uint32_t size) {
  grid g{size, {0}, {}};
  std::uint64_t seed = java_scramble(123456);
  for (std::uint32_t n = 0; n < g.nodes(); ++n) {
    const std::uint32_t at[3] = {g.coordinate(n, 0), g.coordinate(n, 1), g.coordinate(n, 2)};
    std::uint32_t offset = 0, added = 0;
    for (std::uint32_t di = 0; di < 2; ++di)
      for (std::uint32_t dj = 0; dj < 2; ++dj)
        for (std::uint32_t dk = 0; dk < 2; ++dk) {
          ++offset;
          if (offset == 1 || offset == 8) continue;  // (0,0,0) and (1,1,1)
          bool add = offset == 7 && added == 0;
          if (!add) {
            seed = java_step(seed);
            add = (seed >> 47) != 0;  // nextBoolean: next(1)
          }
          if (!add) continue;
          const std::uint32_t m = size * size * std::min(size - 1, at[0] + di) + size * std::min(size - 1, at[1] + dj) +
                                  std::min(size - 1, at[2] + dk);
          if (m == n || std::find(g.edges.begin() + g.first[n], g.edges.end(), m) != g.edges.end()) continue;
          g.edges.push_back(m);
          ++added;
        }
    g.first.push_back(std::uint32_t(g.edges.size()));
  }
  return g;
}

/// A node claimed by a search: Savina's setParent, which won its compareAndSet.
struct claim {
  std::uint32_t node, parent, distance;
  friend bool operator==(const claim&, const claim&) = default;
};

/// A node's shared word: 0 while unclaimed, then its parent (plus one) and its distance from
/// the origin, claimed in one compare-and-swap (Savina sets the distance just after its CAS).
constexpr std::uint64_t claimed_word(std::uint32_t parent, std::uint32_t distance) {
  return std::uint64_t(distance) << 32 | (std::uint64_t(parent) + 1);
}

using frontier = std::deque<std::pair<std::uint32_t, std::uint32_t>>;  ///< (node, distance)

/// Savina's Worker.search from `node`, at `distance` from the origin: a breadth-first sweep of
/// at most `threshold` nodes, each after Savina's busy wait (`busy()`), trying to claim each
/// neighbor (`claim(neighbor, parent, distance)`: true if this search got it). Returns true on
/// claiming the target (Savina then drops the rest); otherwise `left` holds the claimed nodes
/// it did not sweep, which go back to the master as new work.
template <class Claim, class Busy>
bool search(const grid& g, std::uint32_t threshold, std::uint32_t node, std::uint32_t distance, frontier& left,
            Claim&& claim, Busy&& busy) {
  const std::uint32_t target = g.target();
  left.assign(1, {node, distance});
  for (std::uint32_t swept = 0; !left.empty() && swept < threshold; ++swept) {
    busy();
    const auto [n, d] = left.front();
    left.pop_front();
    for (std::uint32_t e = g.first[n]; e < g.first[n + 1]; ++e) {
      const std::uint32_t m = g.edges[e], md = d + g.step(n, m);
      if (!claim(m, n, md)) continue;
      if (m == target) return true;
      left.emplace_back(m, md);
    }
  }
  return false;
}

/// The benchmark run on one thread, its messages delivered in the order sent (one queue for
/// all): the claims and the message count of that one interleaving, counting the injected
/// start and the dead letters. The workload's estimate before a run, and a correct result for
/// the check test.
struct sequential_outcome {
  std::vector<claim> claims;
  std::uint64_t messages = 0;
};
inline sequential_outcome run_sequentially(const grid& g, std::uint32_t threshold, std::uint32_t workers) {
  enum kind { start, work, received, done, stop };
  struct letter {
    kind k;
    std::uint32_t to;  // a worker, or `workers` for the master
    std::uint32_t node = 0, distance = 0;
  };
  sequential_outcome out;
  std::vector<bool> taken(g.nodes(), false);
  std::vector<bool> exited(workers + 1, false);
  std::deque<letter> mail{{start, workers}};
  std::uint64_t forwarded = 0, completed = 0, terminated = 0;
  frontier left;
  auto stop_all = [&] {
    for (std::uint32_t w = 0; w < workers; ++w) mail.push_back({stop, w});
  };
  for (; !mail.empty(); mail.pop_front(), ++out.messages) {
    const letter l = mail.front();
    if (exited[l.to]) continue;  // a dead letter
    if (l.to == workers) {  // the master
      if (l.k == start || l.k == work) mail.push_back({work, std::uint32_t(forwarded++ % workers), l.node, l.distance});
      if (l.k == received && ++completed == forwarded) stop_all();
      if (l.k == done) stop_all();
      if (l.k == stop && ++terminated == workers) exited[workers] = true;
      continue;
    }
    if (l.k == stop) {
      mail.push_back({stop, workers});
      exited[l.to] = true;
      continue;
    }
    const bool found = search(
        g, threshold, l.node, l.distance, left,
        [&](std::uint32_t m, std::uint32_t p, std::uint32_t d) {
          if (taken[m]) return false;
          taken[m] = true;
          out.claims.push_back({m, p, d});
          return true;
        },
        [] {});
    if (found) mail.push_back({done, workers});
    for (std::size_t i = 0; !found && i < left.size(); ++i) mail.push_back({work, workers, left[i].first, left[i].second});
    mail.push_back({received, workers});
  }
  return out;
}

/// Whether the target can be reached from the origin along the grid's links.
inline bool reachable(const grid& g, std::uint32_t to) {
  std::vector<bool> seen(g.nodes(), false);
  std::vector<std::uint32_t> todo{0};
  seen[0] = true;
  while (!todo.empty()) {
    const std::uint32_t n = todo.back();
    todo.pop_back();
    for (std::uint32_t e = g.first[n]; e < g.first[n + 1]; ++e) {
      if (seen[g.edges[e]]) continue;
      seen[g.edges[e]] = true;
      todo.push_back(g.edges[e]);
    }
  }
  return seen[to];
}

/// Savina's validate (the target's chain of parents ends at the origin), and what makes it
/// mean something: no node claimed twice (each claim won a compare-and-swap), each claimed
/// from a node that links to it, claimed itself or the origin, at its distance plus the step;
/// the target claimed exactly when it is reachable (a search stops early only once it is
/// found, so until then every reachable node gets claimed). Empty if all holds, else what broke.
inline std::string check(const grid& g, const std::vector<claim>& claims) {
  constexpr std::uint32_t none = ~0u;
  std::vector<std::uint32_t> parent(g.nodes(), none), distance(g.nodes(), 0);
  for (const claim& c : claims) {
    if (c.node == 0 || c.node >= g.nodes()) return "node " + std::to_string(c.node) + " is not a node a search claims";
    if (parent[c.node] != none) return "node " + std::to_string(c.node) + " claimed twice";
    parent[c.node] = c.parent;
    distance[c.node] = c.distance;
  }
  for (const claim& c : claims) {
    const std::string at = "node " + std::to_string(c.node) + ": ";
    if (c.parent >= g.nodes() || (c.parent != 0 && parent[c.parent] == none))
      return at + "its parent " + std::to_string(c.parent) + " was never claimed";
    if (!g.linked(c.parent, c.node)) return at + "its parent " + std::to_string(c.parent) + " does not link to it";
    if (c.distance != distance[c.parent] + g.step(c.parent, c.node)) return at + "wrong distance from the origin";
  }
  const std::uint32_t target = g.target();
  if ((parent[target] != none) != reachable(g, target))
    return parent[target] != none ? "the target was claimed though no path leads to it" : "the target was never claimed";
  std::uint32_t n = target, hops = 0;
  for (; n != 0 && parent[n] != none && hops <= g.nodes(); ++hops) n = parent[n];
  if (parent[target] != none && n != 0) return "the target's parents do not lead back to the origin";
  return {};
}

}  // namespace twinsched::savina_astar
