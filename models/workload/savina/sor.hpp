// Savina's SOR (successive over-relaxation, red-black, an actor per grid point): the grid, a point's
// neighbors, the sweeps run sequentially and the check of the total, shared by the workload
// (sor.cpp) and its test.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_sor {

/// Savina's grid sides, chosen by its N (an index).
inline constexpr std::uint32_t data_sizes[] = {20, 80, 100, 120, 150, 200, 250, 300, 350, 400};

/// Savina's random matrix, s x s, each entry uniform in [0, 1e-6) (Savina's generator has a fixed
/// seed; here the workload's seed drives models/rng.hpp).
inline std::vector<double> initial(std::uint32_t s, std::uint64_t seed) {
  rng r(seed);
  std::vector<double> a(std::size_t(s) * s);
  for (double& x : a) x = double(r.next() >> 11) * 0x1p-53 * 1e-6;
  return a;
}

/// A point's color: a checkerboard whose (0, 0) is 0; color 1 sends first. Every neighbor of a
/// point has the other color.
inline std::uint32_t color(std::uint32_t x, std::uint32_t y) { return (x + y + 1) % 2; }

/// The points next to (x, y) on an s x s grid, as Savina's SorActor lists them (inner: right,
/// down, left, up; a corner two, an edge three), each as x * s + y.
inline std::vector<std::uint32_t> neighbors(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
  auto at = [s](std::uint32_t i, std::uint32_t j) { return i * s + j; };
  const bool x_edge = x == 0 || x == s - 1, y_edge = y == 0 || y == s - 1;
  if (!x_edge && !y_edge) return {at(x, y + 1), at(x + 1, y), at(x, y - 1), at(x - 1, y)};
  const std::uint32_t vx = x == 0 ? x + 1 : x - 1, vy = y == 0 ? y + 1 : y - 1;
  if (x_edge && y_edge) return {at(vx, y), at(x, vy)};
  if (x_edge) return {at(vx, y), at(x, y + 1), at(x, y - 1)};
  return {at(x, vy), at(x + 1, y), at(x - 1, y)};
}

/// One point's update from the sum of its neighbors' values (Savina's, whatever the count).
inline double update(double value, double sum, double omega) { return 0.25 * omega * sum + (1.0 - omega) * value; }

/// The actors' exchange run sequentially: color 1 sends its starting values; each color-0 point
/// then updates from its neighbors' latest, and color 1 from color 0's, until color 0 has made
/// `iterations` updates and color 1 one fewer (each point sends `iterations` times). The final values.
inline std::vector<double> sweeps(std::vector<double> v, std::uint32_t s, std::uint32_t iterations, double omega) {
  auto half = [&](std::uint32_t c) {
    std::vector<double> next = v;
    for (std::uint32_t x = 0; x < s; ++x)
      for (std::uint32_t y = 0; y < s; ++y) {
        if (color(x, y) != c) continue;
        double sum = 0;
        for (std::uint32_t n : neighbors(x, y, s)) sum += v[n];
        next[x * s + y] = update(v[x * s + y], sum, omega);
      }
    v = std::move(next);
  };
  for (std::uint32_t t = 1; t <= iterations; ++t) {
    half(0);
    if (t < iterations) half(1);
  }
  return v;
}

/// Savina's check (jgfValidate): the total of the final values is the reference's, here to a
/// relative 1e-9 (the actors add a point's neighbors in arrival order).
inline bool total_ok(double total, double reference) { return std::fabs(total - reference) <= 1e-9 * std::fabs(reference); }

}  // namespace twinsched::savina_sor
