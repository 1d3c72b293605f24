// Savina's searches and divide-and-conquer benchmarks: each one's validation refuses a wrong result.
#include <doctest/doctest.h>

#include <algorithm>

#include "models/workload/savina/astar.hpp"
#include "models/workload/savina/facloc.hpp"
#include "models/workload/savina/fib.hpp"
#include "models/workload/savina/nqueenk.hpp"
#include "models/workload/savina/quicksort.hpp"
#include "models/workload/savina/sieve.hpp"
#include "models/workload/savina/uct.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("fib: the value is Savina's Fibonacci number, and its message count follows from it") {
  CHECK(savina_fib::value(1) == 1);
  CHECK(savina_fib::value(2) == 1);
  CHECK(savina_fib::value(25) == 75025);
  CHECK(savina_fib::result_ok(25, 75025));
  CHECK_FALSE(savina_fib::result_ok(25, 75024));
  CHECK_FALSE(savina_fib::result_ok(25, 46368));  // fib(24): a subtree lost
  CHECK(savina_fib::calls(4) == 5);               // fib(4) -> fib(3), fib(2); fib(3) -> fib(2), fib(1)
  CHECK(savina_fib::messages(4) == 9);
  CHECK(savina_fib::messages(25) == 300097);
  // the sequential print is the recursion's own
  CHECK(savina_fib::tree_print(3) == savina_fib::request_print(3) + savina_fib::request_print(2) +
                                         savina_fib::request_print(1) + 2 * savina_fib::response_print(1));
}

TEST_CASE("sieve: the prime count is checked, and the sequential run counts the chain's messages") {
  CHECK(savina_sieve::primes_below(100000).size() == 9592);
  CHECK(savina_sieve::result_ok(100000, 9592));
  CHECK_FALSE(savina_sieve::result_ok(100000, 9591));
  CHECK_FALSE(savina_sieve::result_ok(100000, 9593));
  // n = 12, m = 2: filters {2, 3}, {5, 7}, {11}. 3 visits the first filter; 5 too (which, full,
  // spawns the second with it); 7 the first two; 9 the first (3 divides it); 11 the first two
  // (the second, full, spawns the third); the start and 3 end markers
  const auto r = savina_sieve::run_sequentially(12, 2);
  CHECK(r.filters == 3);
  CHECK(r.messages == 1 + 7 + 3);
  std::uint64_t d = 0;
  const std::uint64_t primes[] = {2, 3, 5};
  CHECK_FALSE(savina_sieve::locally_prime(9, primes, 3, d));
  CHECK(d == 2);
  CHECK(savina_sieve::locally_prime(7, primes, 3, d));
  CHECK(d == 5);
}

TEST_CASE("nqueenk: the solution count is checked against the limit and the board's, and the search is Savina's") {
  using namespace savina_nqueenk;
  CHECK(result_ok(12, 1500000, 14200));  // the limit is never reached: every solution
  CHECK_FALSE(result_ok(12, 1500000, 14199));
  CHECK_FALSE(result_ok(12, 1500000, 14201));
  CHECK(result_ok(12, 100, 100));  // cut: at least K, more may still arrive
  CHECK(result_ok(12, 100, 130));
  CHECK_FALSE(result_ok(12, 100, 99));
  CHECK_FALSE(result_ok(12, 100, 14201));
  std::uint8_t b[max_size] = {};
  std::uint64_t pairs = 0, found = 0;
  search(8, b, 0, pairs, [&] { ++found; });
  CHECK(found == 92);
  const std::uint8_t bad[] = {0, 2, 1}, good[] = {1, 3, 0};
  pairs = 0;
  CHECK_FALSE(board_valid(3, bad, pairs));  // 2 and 1 share a diagonal
  CHECK(pairs == 3);
  CHECK(board_valid(3, good, pairs));
  std::uint8_t back[3];
  unpack(pack(good, 3), 3, back);
  CHECK(std::equal(good, good + 3, back));
  // 4-queens, threshold 1: the empty board and 4 one-queen boards are work; 2 solutions; 2 workers
  CHECK(run_sequentially(4, 1, 2).messages == 1 + (2 + 4 * 3) + 2 + 2 * 2);
}

TEST_CASE("quicksort: the output must be the input sorted, and the sequential sort is Savina's") {
  using namespace savina_quicksort;
  const values input = random_input(1000, 1ull << 60, 7);
  std::uint64_t units = 0;
  values out = sort_sequentially(input, units);
  CHECK(std::is_sorted(out.begin(), out.end()));
  CHECK(result_ok(input, out));
  values wrong = out;
  std::swap(wrong[10], wrong[11]);  // not sorted
  CHECK_FALSE(result_ok(input, wrong));
  wrong = out;
  wrong.pop_back();  // a value lost
  CHECK_FALSE(result_ok(input, wrong));
  wrong = out;
  wrong[500] = wrong[501];  // sorted, but a value changed
  CHECK_FALSE(result_ok(input, wrong));
  wrong = out;
  std::size_t up = 1, down = 998;  // one value up by one, another down by one: sorted, same plain sum
  while (wrong[up] + 1 >= wrong[up + 1]) ++up;
  while (wrong[down] - 1 <= wrong[down - 1]) --down;
  REQUIRE(up + 1 < down);
  ++wrong[up];
  --wrong[down];
  REQUIRE(std::is_sorted(wrong.begin(), wrong.end()));
  CHECK_FALSE(result_ok(input, wrong));
  // Savina's input repeats values (PseudoRandom has 2^16 of them): a repeat lost for another value fails
  const values many = random_input(200000, 1ull << 60, 1024);
  values sorted = many;
  std::sort(sorted.begin(), sorted.end());
  CHECK(result_ok(many, sorted));
  std::size_t i = 0;  // the last copy of a repeated value becomes the next value: still sorted
  while (i + 2 < sorted.size() && !(sorted[i] == sorted[i + 1] && sorted[i + 1] < sorted[i + 2])) ++i;
  REQUIRE(i + 2 < sorted.size());
  sorted[i + 1] = sorted[i + 2];
  CHECK_FALSE(result_ok(many, sorted));
  // threshold 4 on {5, 1, 4, 2, 3}: pivot 4 splits it into {1, 2, 3} and {5}, both leaves
  reference r;
  split_sequentially(values{5, 1, 4, 2, 3}, 4, 0, r);
  CHECK(r.actors == 3);
  CHECK(r.messages() == 5);
}

TEST_CASE("facloc: every customer is served once, inside its quadrant, and the facility counts agree") {
  using namespace savina_facloc;
  const std::vector<point> input = customers(100, 500, 3);
  outcome good;
  good.served = {input.rbegin(), input.rend()};  // any order
  good.in_their_boxes = true;
  good.customers_reported = 100;
  good.facilities = good.known = 5;
  CHECK(result_ok(input, good));
  outcome o = good;
  o.served.pop_back();  // a customer lost
  CHECK_FALSE(result_ok(input, o));
  o = good;
  o.served.push_back(o.served.front());  // a customer served twice
  CHECK_FALSE(result_ok(input, o));
  o = good;
  o.in_their_boxes = false;
  CHECK_FALSE(result_ok(input, o));
  o = good;
  o.customers_reported = 99;
  CHECK_FALSE(result_ok(input, o));
  o = good;
  o.facilities = 6;  // an opening the root was never told of
  CHECK_FALSE(result_ok(input, o));
  std::uint64_t units = 0;
  CHECK(cost({3, 4}, {{0, 0}, {100, 100}}, units) == 5);
  CHECK(units == 2);
  CHECK(box{0, 0, 1, 1}.contains({1, 0.5}));
  CHECK_FALSE(box{0, 0, 1, 1}.contains({1.5, 0.5}));
}

TEST_CASE("uct: the tree's shape may vary, but the check refuses a tree a correct run cannot leave") {
  using namespace savina_uct;
  // max 100 nodes, 10 children a grant: the root stops at a size of 91
  const outcome good{true, 91, 80, 4, 4, true, true};
  CHECK(result_ok(100, 10, good));
  outcome o = good;
  o.root_done = false;  // the root never ran out of room
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.size = 81;  // stopped with room for another grant
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.nodes = 100;  // more nodes than granted
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.nodes = 75;  // a grant half made
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.terminated_once = false;
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.traversals_ok = false;
  CHECK_FALSE(result_ok(100, 10, o));
  o = good;
  o.deepest = 5;  // deeper than the root knows
  CHECK_FALSE(result_ok(100, 10, o));
  rng r(1);
  for (int i = 0; i < 100; ++i) CHECK(next_normal(r, 5, 10) > 0);
}

TEST_CASE("astar: the grid is Savina's, and the check refuses claims a correct search cannot leave") {
  using namespace savina_astar;
  // java.util.Random: new Random(42).nextInt() is -1170105035
  CHECK(std::int32_t(std::uint32_t(java_step(java_scramble(42)) >> 16)) == -1170105035);
  const grid g = make_grid(30);
  CHECK(g.nodes() == 27000);
  CHECK(g.target() == 24 * 900 + 24 * 30 + 24);
  CHECK(g.edges.size() == 78712);  // the links Random(123456) draws for Savina's default grid
  for (std::uint32_t n = 0; n < g.nodes(); ++n)
    for (std::uint32_t e = g.first[n]; e < g.first[n + 1]; ++e) REQUIRE(g.edges[e] > n);  // forward only
  REQUIRE(reachable(g, g.target()));
  // one interleaving: a claim each reachable node but the origin up to the target, then the rest
  const sequential_outcome run = run_sequentially(g, 1024, 20);
  CHECK(check(g, run.claims).empty());
  CHECK(run.messages == 5431);
  CHECK(run.claims.size() == 20491);

  std::vector<claim> c = run.claims;
  c.push_back(c[c.size() / 2]);  // a node claimed twice: a compare-and-swap that was not atomic
  CHECK(check(g, c).find("claimed twice") != std::string::npos);
  c = run.claims;
  c.erase(c.begin());  // the first claim lost: its node's children have a parent never claimed
  CHECK(check(g, c).find("never claimed") != std::string::npos);
  c = run.claims;
  ++c.back().distance;
  CHECK(check(g, c).find("wrong distance") != std::string::npos);
  c = run.claims;
  c.back().parent = 0;  // the origin links to none of the far nodes
  CHECK(check(g, c).find("does not link") != std::string::npos);
  c = run.claims;
  std::erase_if(c, [&](const claim& x) { return x.node == g.target(); });  // never found
  CHECK(check(g, c) == "the target was never claimed");
  c = run.claims;
  c.push_back({0, 0, 0});  // the origin claimed
  CHECK_FALSE(check(g, c).empty());

  // 2^3 nodes, one search finds (1,1,1): the start, its work, done and received, then a stop to
  // every worker for the target and another when the last work completes (dead letters), and
  // each worker's stop back: 4 + 3 workers
  const grid tiny = make_grid(2);
  REQUIRE(reachable(tiny, tiny.target()));
  CHECK(run_sequentially(tiny, 1024, 1).messages == 7);
  CHECK(run_sequentially(tiny, 1024, 3).messages == 13);
  CHECK(claimed_word(5, 3) == (std::uint64_t(3) << 32 | 6));
}
