// Savina's Trapezoid: the kernel its workers run and the check of the area the master sums, shared by
// the workload (trapezoid.cpp) and its test.
#pragma once
#include <cmath>
#include <cstdint>

namespace twinsched::savina_trapezoid {

/// The integrand Savina's TrapezoidalConfig.fx integrates.
inline double fx(double x) {
  const double a = std::sin(std::pow(x, 3) - 1);
  return a / (x + 1) * std::sqrt(1 + std::exp(std::sqrt(2 * x)));
}

/// The trapezoids of width h from l that fit in [l, r): the count truncated, as Savina's
/// `.asInstanceOf[Int]` does (none for a zero width).
inline std::int64_t pieces(double l, double r, double h) { return h != 0 ? std::int64_t((r - l) / h) : 0; }

/// One worker's job as Savina's worker computes it: its pieces summed left to right.
inline double worker_area(double l, double r, double h) {
  const std::int64_t n = pieces(l, r, h);
  double area = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double lx = double(i) * h + l;
    area += 0.5 * (fx(lx) + fx(lx + h)) * h;
  }
  return area;
}

/// The master's total, whose replies it summed in arrival order, against the same partial areas
/// summed in worker order: equal but for the rounding of a sum's order.
inline bool area_ok(double area, double reference) {
  return std::fabs(area - reference) <= 1e-9 * std::fmax(1.0, std::fabs(reference));
}

}  // namespace twinsched::savina_trapezoid
