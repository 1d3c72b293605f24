// sim/date_index.hpp: the dates near a date, against a scan of every date, through adds and
// removes, crowded slots and equal dates.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "models/rng.hpp"
#include "sim/date_index.hpp"

TEST_SUITE_BEGIN("unit");

using twinsched::sim_detail::date_index;

namespace {

/// What a scan of `dates` says of the dates within `within` of `date`.
date_index::near scan(const std::vector<double>& dates, double date, double within) {
  date_index::near n;
  for (double w : dates) n.consider(w, date, within);
  return n;
}

}  // namespace

TEST_CASE("the dates within 2 ns of a date: how many and the latest, as a scan finds them, or unknown") {
  date_index idx;
  std::vector<double> dates;
  std::uint64_t s = 7;
  std::uint64_t answered = 0, unknown = 0;
  for (int step = 0; step < 20000; ++step) {
    s = twinsched::splitmix64(s);
    // dates on a 1 ns grid over 2 us, with repeats: ties, near ties, crowds of equal dates
    const double date = 1e-3 + double(s % 2000) * 1e-9;
    if (!dates.empty() && (s >> 20) % 3 == 0) {
      const std::size_t i = (s >> 32) % dates.size();
      idx.remove(dates[i]);
      dates[i] = dates.back();
      dates.pop_back();
    } else if (dates.size() < 300) {
      idx.add(date);
      dates.push_back(date);
    }
    const double probe = 1e-3 + double((s >> 40) % 2000) * 1e-9 + 0.5e-9;
    const date_index::near want = scan(dates, probe, 2e-9);
    if (const auto got = idx.near_to(probe, 2e-9)) {
      ++answered;
      CAPTURE(step);
      REQUIRE(got->count == want.count);
      REQUIRE(got->latest == want.latest);
    } else {
      ++unknown;
    }
  }
  INFO("answered " << answered << ", unknown " << unknown);
  CHECK(answered > 10 * unknown);  // a crowded slot is the exception
  CHECK(unknown > 0);              // and the test meets one
}

TEST_CASE("five equal dates crowd their slot: unknown until every one is removed, then exact again") {
  date_index idx;
  const double d = 0.5;
  for (int i = 0; i < 5; ++i) idx.add(d);
  CHECK_FALSE(idx.near_to(d, 2e-9).has_value());
  for (int i = 0; i < 4; ++i) idx.remove(d);
  CHECK_FALSE(idx.near_to(d, 2e-9).has_value());  // four left, but which it kept is not known
  idx.remove(d);
  const auto n = idx.near_to(d, 2e-9);
  REQUIRE(n.has_value());
  CHECK(n->count == 0);
  idx.add(d + 1e-9);
  const auto m = idx.near_to(d, 2e-9);
  REQUIRE(m.has_value());
  CHECK(m->count == 1);
  CHECK(m->latest == d + 1e-9);
}
