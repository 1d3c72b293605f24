// Savina's Trapezoid: the kernel its workers run and the check of the areas the master
// received, shared by the workload (trapezoid.cpp) and its test.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

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

/// fx without its oscillating factor: fx = sin(x^3 - 1) * gx.
inline double gx(double x) { return std::sqrt(1 + std::exp(std::sqrt(2 * x))) / (x + 1); }

/// fx's derivative, by the product rule.
inline double dfx(double x) {
  const double s = std::sqrt(2 * x), e = std::exp(s), w = std::sqrt(1 + e), v = 1 / (x + 1), t = x * x * x - 1;
  const double u = std::sin(t), du = 3 * x * x * std::cos(t), dv = -v * v, dw = e / (2 * w * s);
  return du * v * w + u * dv * w + u * v * dw;
}

/// The 8-point Gauss-Legendre rule on [-1, 1], its nodes in symmetric pairs: exact for
/// polynomials of degree 15.
inline constexpr double gauss_node[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                         0.9602898564975363};
inline constexpr double gauss_weight[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                           0.1012285362903763};

/// A job's area found without summing its trapezoids, and how far a correct sum may lie from it.
struct area_estimate {
  double area = 0, tolerance = 0;
  bool usable = false;  ///< false where the bounds below do not hold: sum the job instead
};

/// The n trapezoids of width h from a, as the Euler-Maclaurin formula has them: the integral over
/// [a, b = a + n h] (Gauss-Legendre, on panels over which fx turns by at most half a radian) plus
/// h^2/12 (fx'(b) - fx'(a)). What is left is at most (b - a) h^4 max|fx''''| / 720; fx's
/// derivatives grow by at most `rate` per order (its phase x^3 - 1 turns at 3x^2; sqrt(2x)'s
/// derivatives grow as 1/x), so that is bounded by (b - a) h^4 rate^4 2 max|gx| / 720, taken 16
/// times. To it adds the worst rounding of the worker's sum: each addition off by an epsilon of
/// the running total, each point off by an epsilon of x moving fx by fx' x, and fx's own few
/// epsilons. Usable where h rate <= 0.05 and a > 0 (fx is real from 0): there, for a job of
/// under a million trapezoids, the bound is below one trapezoid's area, so a job's range off by
/// one trapezoid fails, and so does an area changed by as much.
inline area_estimate estimate_area(double a, std::int64_t n, double h) {
  if (n <= 0) return {0, 0, true};
  const double b = a + double(n) * h;
  if (!(a > 0) || !(h > 0) || !std::isfinite(b)) return {};
  const double rate = std::max({3 * b * b, 2 / a, 2.0});
  if (h * rate > 0.05) return {};
  const double span = b - a;
  const double panels = std::ceil(span * rate / 0.5), width = span / panels;
  double integral = 0, fmax = 0, gmax = 0, dmax = 0;
  for (double p = 0; p < panels; ++p) {
    const double mid = a + (p + 0.5) * width, half = width / 2;
    double panel = 0;
    for (int k = 0; k < 4; ++k)
      for (const double side : {-1.0, 1.0}) {
        const double x = mid + side * half * gauss_node[k], y = fx(x);
        panel += gauss_weight[k] * y;
        fmax = std::max(fmax, std::fabs(y));
        gmax = std::max(gmax, gx(x));
        dmax = std::max(dmax, std::fabs(dfx(x)));
      }
    integral += half * panel;
  }
  // the maxima are sampled: doubled
  fmax *= 2, gmax *= 2, dmax *= 2;
  const double eps = std::numeric_limits<double>::epsilon();
  const double truncation = 16 * span * std::pow(h * rate, 4) * 2 * gmax / 720;
  const double rounding = eps * (double(n) * span * fmax + span * (4 * dmax * b + 16 * fmax + 4 * b * b * b * gmax));
  return {integral + h * h / 12 * (dfx(b) - dfx(a)), truncation + rounding, true};
}

/// Up to this many trapezoids in all the check sums every job again (it costs less than the
/// estimates); above it, each job's estimate stands in for its sum.
inline constexpr std::int64_t sum_jobs_up_to = std::int64_t(1) << 17;

/// What the master received: per job, the area of its reply and how many replies it had.
struct received {
  std::vector<double> area;
  std::vector<std::uint32_t> replies;
  std::uint64_t strays = 0;  ///< replies that named no job
  double total = 0;          ///< the master's sum, in arrival order
};

/// The check's findings.
struct judgement {
  bool ok = false;
  std::uint64_t summed = 0, estimated = 0;  ///< jobs checked against their sum, their estimate
  double widest = 0;                        ///< the largest tolerance an estimated job had
  std::string why;                          ///< what failed, when it did
};

/// Every job replied once and nothing else did; each job's area is what summing its trapezoids
/// gives (bit for bit) or lies within its estimate's tolerance; the master's total is the sum of
/// the areas, but for the rounding of the order it added them in. `left(i)` and `right(i)` are
/// job i's range, h the trapezoids' width.
template <class Left, class Right>
judgement judge(const received& got, std::uint64_t jobs, double h, Left left, Right right) {
  judgement j;
  const auto fail = [&j](std::string why) {
    j.why = std::move(why);
    return j;
  };
  if (got.strays != 0) return fail(std::to_string(got.strays) + " replies named no job");
  if (got.area.size() != jobs || got.replies.size() != jobs) return fail("the replies are not filed by job");
  std::int64_t all = 0;
  for (std::uint64_t i = 0; i < jobs; ++i) all += pieces(left(i), right(i), h);
  double sum = 0, magnitude = 0;
  for (std::uint64_t i = 0; i < jobs; ++i) {
    const std::string job = "job " + std::to_string(i);
    if (got.replies[i] != 1) return fail(job + " replied " + std::to_string(got.replies[i]) + " times");
    const double area = got.area[i];
    const std::int64_t n = pieces(left(i), right(i), h);
    const area_estimate e = all > sum_jobs_up_to ? estimate_area(left(i), n, h) : area_estimate{};
    if (e.usable) {
      if (!(std::fabs(area - e.area) <= e.tolerance))
        return fail(job + "'s area " + std::to_string(area) + " is off its estimate by more than " +
                    std::to_string(e.tolerance));
      ++j.estimated;
      j.widest = std::max(j.widest, e.tolerance);
    } else {
      if (!(area == worker_area(left(i), right(i), h))) return fail(job + "'s area is not its trapezoids' sum");
      ++j.summed;
    }
    sum += area;
    magnitude += std::fabs(area);
  }
  if (!(std::fabs(got.total - sum) <= 2 * double(jobs) * std::numeric_limits<double>::epsilon() * magnitude))
    return fail("the master's total is not the sum of its replies");
  j.ok = true;
  return j;
}

}  // namespace twinsched::savina_trapezoid
