// A fixed-size log-linear histogram of nanosecond values: no allocation when adding, merged by addition.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "run_result.hpp"  // latency_summary

namespace twinsched {

/// Counts of values in buckets that are exact below 16 and 1/16 of a power of two wide above
/// (a bucket's width is at most 6.25% of its values), from 0 to 2^64 - 1. Adding is a shift, a
/// count of leading zeros and an increment; the array is 8 KiB, so one lives per recording
/// thread, never shared (merge them at the end).
class log_histogram {
 public:
  static constexpr unsigned sub_bits = 4, sub = 1u << sub_bits;
  static constexpr unsigned buckets = (64 - sub_bits + 1) * sub;

  static constexpr unsigned bucket_of(std::uint64_t v) {
    if (v < sub) return unsigned(v);
    const unsigned e = unsigned(std::bit_width(v)) - 1;  // v in [2^e, 2^(e+1)), e >= sub_bits
    return (e - sub_bits + 1) * sub + unsigned((v >> (e - sub_bits)) & (sub - 1));
  }
  /// The smallest value in bucket `b`.
  static constexpr std::uint64_t low(unsigned b) {
    if (b < sub) return b;
    const unsigned e = b / sub - 1 + sub_bits;
    return (std::uint64_t(sub + b % sub)) << (e - sub_bits);
  }
  /// The middle of bucket `b` (its only value below 16).
  static constexpr std::uint64_t mid(unsigned b) {
    if (b < sub) return b;
    const std::uint64_t lo = low(b), width = std::uint64_t(1) << (b / sub - 1);
    return lo + width / 2;
  }

  void add(std::uint64_t v) {
    ++counts_[bucket_of(v)];
    ++n_;
    sum_ += v;
    if (v > max_) max_ = v;
  }
  /// Adds `o`'s counts (out of line: every scheduler instantiation calls it, at the end of a run).
  void merge(const log_histogram& o);

  std::uint64_t count() const { return n_; }
  std::uint64_t max() const { return max_; }
  double mean() const { return n_ ? double(sum_) / double(n_) : 0; }
  /// The value below which a share `q` (0..1) of the values lie: the middle of the bucket that
  /// holds the value of rank ceil(q * count) (rank 1 for q = 0), never above max(). 0 if empty.
  std::uint64_t quantile(double q) const;
  /// Count, mean, p50, p99, p99.9 and max, as a run reports them.
  latency_summary summary() const;

 private:
  std::array<std::uint64_t, buckets> counts_{};
  std::uint64_t n_ = 0, sum_ = 0, max_ = 0;
};

}  // namespace twinsched
