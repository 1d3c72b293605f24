// The dated waits' dates by time bucket: which of them lie within a few ns of a given date, in
// a few loads instead of a scan of every actor's entry (cost_model.cpp, clear_of_ties).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace twinsched::sim_detail {

/// A multiset of dates (simulated s) hashed by 4 ns bucket: a date within 2 ns of another lies
/// in its bucket or one beside it. Buckets share slots by hash; a slot keeps up to four dates,
/// and one that has held more (counted, no longer kept) answers "unknown" until it empties, so
/// the caller scans instead. A date is removed as the same double it was added as.
class date_index {
 public:
  static constexpr double bucket_s = 4e-9;
  static constexpr double reach_s = bucket_s / 2;  ///< near_to sees this far, no further

  void add(double date) {
    slot& s = at(bucket(date));
    if (s.count == s.dates.size()) s.overflowed = true;
    if (!s.overflowed) s.dates[s.count] = date;
    ++s.count;
  }
  void remove(double date) {
    slot& s = at(bucket(date));
    if (!s.overflowed) {  // every date is kept: take this one out, the last in its place
      for (std::uint32_t i = 0; i < s.count; ++i)
        if (s.dates[i] == date) {
          s.dates[i] = s.dates[s.count - 1];
          break;
        }
    }
    if (--s.count == 0) s = slot{};
  }
  /// The dates within `within` (at most reach_s) of a date: how many, and the latest (-1 if none).
  struct near {
    std::uint32_t count = 0;
    double latest = -1;
    /// Counts `w` if it lies within `within` of `date`.
    void consider(double w, double date, double within) {
      if (std::abs(w - date) > within) return;
      ++count;
      if (w > latest) latest = w;
    }
  };
  /// The dates near `date`, or nothing if a slot near it has overflowed (then only a scan can tell).
  std::optional<near> near_to(double date, double within) const {
    near n;
    const std::int64_t b = bucket(date);
    for (std::int64_t k = b - 1; k <= b + 1; ++k) {
      const slot& s = slots_[hash(k)];
      if (s.overflowed) return std::nullopt;
      for (std::uint32_t i = 0; i < s.count; ++i) n.consider(s.dates[i], date, within);
    }
    return n;
  }

 private:
  static constexpr unsigned slots_log2 = 10;
  struct slot {
    std::uint32_t count = 0;  ///< dates in this slot
    bool overflowed = false;  ///< it has held more than dates.size() since it was last empty
    std::array<double, 4> dates{};
  };
  static std::int64_t bucket(double date) { return std::int64_t(date * (1 / bucket_s)); }  // dates are >= 0
  // Buckets one and two apart never share a slot (one more bucket adds 632 or 633 to the top ten
  // bits, mod 1024, two more 241 or 242: never 0), so near_to counts no date twice.
  static std::size_t hash(std::int64_t bucket) {
    return std::size_t((std::uint64_t(bucket) * 0x9e3779b97f4a7c15ull) >> (64 - slots_log2));
  }
  slot& at(std::int64_t bucket) { return slots_[hash(bucket)]; }

  std::vector<slot> slots_ = std::vector<slot>(std::size_t(1) << slots_log2);
};

}  // namespace twinsched::sim_detail
