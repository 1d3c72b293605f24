// Calibration's statistics over timed batches: quantiles, the lower-quartile cost, time per operation.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace twinsched::calib {

using clk = std::chrono::steady_clock;
inline double ns_since(clk::time_point t0) { return std::chrono::duration<double, std::nano>(clk::now() - t0).count(); }

/// The q-quantile of v (0 for none).
inline double quantile_of(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::size_t(q * double(v.size() - 1) + 0.5)];
}
inline double median_of(const std::vector<double>& v) { return quantile_of(v, 0.5); }

/// The q-quantile of `reps` results of f (0.5: the median).
template <class F>
double quantile(int reps, double q, F f) {
  std::vector<double> v;
  for (int i = 0; i < reps; ++i) v.push_back(f());
  return quantile_of(std::move(v), q);
}

/// A cost: the lower quartile of many short batches. Noise on a shared machine (another
/// process, the hypervisor, a preemption of either thread of a pair) only ever adds time, and
/// on a busy 2-CPU box it hits most batches: the median drifts with the load, the minimum is
/// luck; the lower quartile is what a batch costs when little disturbs it.
template <class F>
double cost_of(int reps, F f) {
  return quantile(reps, 0.25, f);
}

/// The lower quartile of v (see cost_of).
inline double lower_quartile(const std::vector<double>& v) { return quantile_of(v, 0.25); }

/// ns per operation of `body(n)`, which runs n operations.
template <class F>
double per_op(std::uint64_t n, F body) {
  auto t0 = clk::now();
  body(n);
  return ns_since(t0) / double(n);
}

/// printf-style formatting of up to four figures (the notes calibration writes).
inline std::string fmt(const char* f, double a, double b = 0, double c = 0, double d = 0) {
  char buf[256];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

}  // namespace twinsched::calib
