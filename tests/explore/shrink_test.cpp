// Explore's shrinking (ddmin): on synthetic failure predicates it finds the 1-minimal list, the same batches every time.
#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "explore/ddmin.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched::explore;

namespace {

/// A test that fails when the candidate holds every element of `needed`; records each batch.
struct needs_all {
  std::vector<int> needed;
  std::vector<std::vector<std::vector<int>>> batches;
  std::size_t tested = 0;
  std::optional<std::size_t> operator()(const std::vector<std::vector<int>>& candidates) {
    batches.push_back(candidates);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      ++tested;
      const auto& c = candidates[i];
      if (std::all_of(needed.begin(), needed.end(), [&](int x) { return std::find(c.begin(), c.end(), x) != c.end(); }))
        return i;
    }
    return std::nullopt;
  }
};

std::vector<int> range(int n) {
  std::vector<int> v(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) v[std::size_t(i)] = i;
  return v;
}

}  // namespace

TEST_CASE("ddmin: of 40 elements, the failure needing 3 and 17 shrinks to exactly {3, 17}, in order") {
  needs_all t{{17, 3}, {}, 0};
  CHECK(ddmin(range(40), std::ref(t)) == std::vector<int>{3, 17});
  CHECK(t.tested < 40 * 40);  // far fewer tests than trying every pair
}

TEST_CASE("ddmin: one needed element of many shrinks to that one, three spread ones to those three") {
  needs_all one{{29}, {}, 0};
  CHECK(ddmin(range(64), std::ref(one)) == std::vector<int>{29});
  needs_all three{{0, 31, 62}, {}, 0};
  CHECK(ddmin(range(63), std::ref(three)) == std::vector<int>{0, 31, 62});
}

TEST_CASE("ddmin: the result is 1-minimal: removing any one element makes the failure go away") {
  needs_all t{{5, 6, 7, 20}, {}, 0};
  const std::vector<int> small = ddmin(range(33), std::ref(t));
  REQUIRE(small == std::vector<int>{5, 6, 7, 20});
  for (std::size_t k = 0; k < small.size(); ++k) {
    std::vector<int> less = small;
    less.erase(less.begin() + std::ptrdiff_t(k));
    needs_all check{t.needed, {}, 0};
    CHECK_FALSE(check({less}));
  }
}

TEST_CASE("ddmin: a failure that needs none of the elements shrinks to the empty list") {
  needs_all t{{}, {}, 0};
  CHECK(ddmin(range(10), std::ref(t)).empty());
  needs_all single{{}, {}, 0};
  CHECK(ddmin(std::vector<int>{4}, std::ref(single)).empty());
  CHECK(single.batches == std::vector<std::vector<std::vector<int>>>{{{}}});  // one batch: the empty list alone
}

TEST_CASE("ddmin: deterministic: the same input and test give the same result through the same batches") {
  needs_all a{{2, 11, 25}, {}, 0}, b{{2, 11, 25}, {}, 0};
  const auto ra = ddmin(range(30), std::ref(a));
  const auto rb = ddmin(range(30), std::ref(b));
  CHECK(ra == rb);
  CHECK(a.batches == b.batches);
  CHECK(!a.batches.empty());
}

TEST_CASE("ddmin: the first failing candidate of a batch wins, as when a batch runs in parallel") {
  // fails when it holds 1 or 8: the first half (holding 1) comes first and must be taken
  auto either = [](const std::vector<std::vector<int>>& cs) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < cs.size(); ++i)
      if (std::find(cs[i].begin(), cs[i].end(), 1) != cs[i].end() || std::find(cs[i].begin(), cs[i].end(), 8) != cs[i].end())
        return i;
    return std::nullopt;
  };
  CHECK(ddmin(range(10), either) == std::vector<int>{1});
}
