// The log-linear histogram's out-of-line parts: merging, quantiles and the summary a run reports.
#include "log_histogram.hpp"

namespace twinsched {

void log_histogram::merge(const log_histogram& o) {
  for (unsigned b = 0; b < buckets; ++b) counts_[b] += o.counts_[b];
  n_ += o.n_;
  sum_ += o.sum_;
  if (o.max_ > max_) max_ = o.max_;
}

std::uint64_t log_histogram::quantile(double q) const {
  if (n_ == 0) return 0;
  std::uint64_t rank = std::uint64_t(q * double(n_) + 0.999999);
  if (rank < 1) rank = 1;
  if (rank > n_) rank = n_;
  std::uint64_t seen = 0;
  for (unsigned b = 0; b < buckets; ++b) {
    seen += counts_[b];
    if (seen >= rank) return mid(b) < max_ ? mid(b) : max_;
  }
  return max_;
}

latency_summary log_histogram::summary() const {
  return {n_, mean(), quantile(0.5), quantile(0.99), quantile(0.999), max_};
}

}  // namespace twinsched
