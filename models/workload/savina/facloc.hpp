// Savina's FacLoc (facility location): the geometry and the check its workload and its check test share.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_facloc {

struct point {
  double x = 0, y = 0;
  double distance(const point& p) const { return std::sqrt((p.x - x) * (p.x - x) + (p.y - y) * (p.y - y)); }
  friend bool operator==(const point&, const point&) = default;
  friend bool operator<(const point& a, const point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
};

/// Savina's Box: a closed rectangle.
struct box {
  double x1, y1, x2, y2;
  bool contains(const point& p) const { return x1 <= p.x && y1 <= p.y && p.x <= x2 && p.y <= y2; }
  point mid() const { return {(x1 + x2) / 2, (y1 + y2) / 2}; }
};

/// The customers, Savina's Point.random in the producer's order, from the workload's seed.
inline std::vector<point> customers(std::uint64_t n, double grid, std::uint64_t seed) {
  rng r(seed);
  auto unit = [&r] { return double(r.next() >> 11) * 0x1.0p-53; };
  std::vector<point> out(n);
  for (auto& p : out) {
    p.x = unit() * grid;
    p.y = unit() * grid;
  }
  return out;
}

/// Savina's findCost: the distance from `p` to the nearest facility (one a unit of the kernel).
inline double cost(const point& p, const std::vector<point>& facilities, std::uint64_t& units) {
  double best = std::numeric_limits<double>::max();
  for (const point& f : facilities) best = std::min(best, f.distance(p));
  units += facilities.size();
  return best;
}

/// The run's result as the root quadrant reports it, and what the check compares it with.
struct outcome {
  std::uint64_t facilities = 0;      ///< the root's count from its children's exit confirmations
  std::uint64_t known = 0;           ///< the facilities the root learned of through facility messages
  std::vector<point> served;         ///< every leaf quadrant's customers, gathered after the run
  bool in_their_boxes = false;       ///< each of them inside its leaf's box
  std::uint64_t customers_reported = 0;  ///< the root's count from the exit confirmations
};

/// How far a run's facilities depend on the interleaving (which facilities a quadrant knew of
/// when each customer arrived) leaves no single right answer; what every correct run has:
/// every customer ends up served by exactly one leaf, inside its box, the confirmations count
/// them all, and the facilities opened that the confirmations count are those the root was
/// told of (each opening travels up to the root once).
inline bool result_ok(std::vector<point> input, outcome o) {
  std::sort(input.begin(), input.end());
  std::sort(o.served.begin(), o.served.end());
  return o.in_their_boxes && o.served == input && o.customers_reported == input.size() &&
         o.facilities == o.known && o.facilities >= 1;
}

/// A message's print, which its sender records and its receiver adds: order-independent
/// fingerprints of what travelled.
constexpr std::uint64_t print(std::uint64_t a, std::uint64_t b, std::uint32_t tag) {
  return splitmix64(a ^ splitmix64(b + tag));
}

}  // namespace twinsched::savina_facloc
