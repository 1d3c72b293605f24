// A log-linear histogram of nanosecond durations: fixed memory, quantiles within ~3%.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace twinsched::traces {

/// Values below 32 are exact; above, each power of two is split into 32 buckets, so a
/// quantile is reported within 1/32 of its value. 2 KiB per histogram, whatever the count.
class histogram {
 public:
  void add(std::uint64_t v) {
    ++counts_[bucket(v)];
    ++n_;
    sum_ += double(v);
    if (v > max_) max_ = v;
  }
  std::uint64_t count() const { return n_; }
  double mean() const { return n_ ? sum_ / double(n_) : 0; }
  std::uint64_t max() const { return max_; }

  /// The smallest bucket value v with at least q of the values <= v (q in [0, 1]).
  std::uint64_t quantile(double q) const {
    if (n_ == 0) return 0;
    const double want = q * double(n_);
    std::uint64_t seen = 0;
    for (unsigned b = 0; b < buckets; ++b) {
      seen += counts_[b];
      if (double(seen) >= want && seen > 0) return std::min(upper(b), max_);
    }
    return max_;
  }

 private:
  static constexpr unsigned sub_bits = 5, sub = 1u << sub_bits, buckets = 64 * sub;
  static unsigned bucket(std::uint64_t v) {
    if (v < sub) return unsigned(v);
    const unsigned e = unsigned(std::bit_width(v)) - 1;  // >= sub_bits
    return (e - sub_bits + 1) * sub + unsigned((v >> (e - sub_bits)) & (sub - 1));
  }
  static std::uint64_t upper(unsigned b) {
    if (b < sub) return b;
    const unsigned e = b / sub + sub_bits - 1, m = b % sub;
    return ((std::uint64_t(sub) + m + 1) << (e - sub_bits)) - 1;
  }
  std::array<std::uint64_t, buckets> counts_{};
  std::uint64_t n_ = 0, max_ = 0;
  double sum_ = 0;
};

}  // namespace twinsched::traces
