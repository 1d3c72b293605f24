// Savina's data-parallel kernels: each benchmark's result check passes the right result and
// fails a wrong one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <utility>
#include <vector>

#include "models/workload/savina/apsp.hpp"
#include "models/workload/savina/bitonicsort.hpp"
#include "models/workload/savina/filterbank.hpp"
#include "models/workload/savina/piprecision.hpp"
#include "models/workload/savina/radixsort.hpp"
#include "models/workload/savina/recmatmul.hpp"
#include "models/workload/savina/sor.hpp"
#include "models/workload/savina/trapezoid.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("trapezoid: the Gauss-Legendre rule is exact to degree 15, and fx' is fx's slope") {
  using namespace savina_trapezoid;
  double sum15 = 0, sum16 = 0;  // on [0, 1]: the nodes mapped to 0.5 +- 0.5 node
  for (int k = 0; k < 4; ++k)
    for (const double side : {-1.0, 1.0}) {
      const double x = 0.5 + side * 0.5 * gauss_node[k];
      sum15 += 0.5 * gauss_weight[k] * std::pow(x, 15);
      sum16 += 0.5 * gauss_weight[k] * std::pow(x, 16);
    }
  CHECK(sum15 == doctest::Approx(1.0 / 16).epsilon(1e-14));
  CHECK(std::fabs(sum16 - 1.0 / 17) > 1e-12);  // degree 16 is past it
  for (const double x : {0.05, 1.0, 2.5, 4.99}) {
    const double d = 1e-6 * x;
    CHECK(dfx(x) == doctest::Approx((fx(x + d) - fx(x - d)) / (2 * d)).epsilon(1e-6));
  }
}

TEST_CASE("trapezoid: a job's estimate holds its sum, and a range off by one trapezoid or an area changed falls outside") {
  using namespace savina_trapezoid;
  struct job {
    double a, h;
    std::int64_t n;
  };
  // Savina's first and last jobs (the phase turns fastest at 5), a job at the estimate's limit
  // (h x 3 b^2 = 0.05), one near 0 (sqrt(2x)'s derivatives grow there)
  for (const job j : {job{1, 4e-7, 100000}, job{4.96, 4e-7, 100000}, job{4.96, 0.0499 / 75, 60}, job{0.01, 1e-4, 1000}}) {
    CAPTURE(j.a);
    CAPTURE(j.h);
    const area_estimate e = estimate_area(j.a, j.n, j.h);
    REQUIRE(e.usable);
    const double b = j.a + double(j.n) * j.h;
    const double sum = worker_area(j.a, b, j.h);
    REQUIRE(pieces(j.a, b, j.h) >= j.n - 1);
    const double area = pieces(j.a, b, j.h) == j.n ? sum : sum + 0.5 * (fx(b - j.h) + fx(b)) * j.h;
    CHECK(std::fabs(area - e.area) <= e.tolerance);
    CHECK(std::fabs(worker_area(j.a + j.h, b + j.h, j.h) - e.area) > e.tolerance);  // shifted by one
    CHECK(std::fabs(area + 0.5 * (fx(b) + fx(b + j.h)) * j.h - e.area) > e.tolerance);  // a trapezoid more
    if (j.n == 100000) CHECK(std::fabs(area * (1 + 1e-6) - e.area) > e.tolerance);     // Savina's: 10^-6 of it
  }
  CHECK_FALSE(estimate_area(4.9, 100, 0.001).usable);  // h x 3 b^2 = 0.075
  CHECK_FALSE(estimate_area(0, 100, 1e-6).usable);     // fx' is infinite at 0
  CHECK_FALSE(estimate_area(-1, 100, 1e-6).usable);
  CHECK(estimate_area(1, 0, 1e-3).usable);
}

TEST_CASE("trapezoid: the check refuses a job lost, answered twice or wrong, a stray reply and a wrong total") {
  using namespace savina_trapezoid;
  // n trapezoids in 4 jobs over [1, 5], as Savina's master splits them
  const auto run = [](std::int64_t n) {
    const double h = 4.0 / double(n);
    const auto left = [](std::uint64_t i) { return 1.0 * double(i) + 1; };
    const auto right = [](std::uint64_t i) { return 1.0 * double(i) + 2; };
    received got;
    for (std::uint64_t i = 0; i < 4; ++i) {
      got.area.push_back(worker_area(left(i), right(i), h));
      got.replies.push_back(1);
    }
    got.total = got.area[3] + got.area[1] + got.area[0] + got.area[2];  // any order
    return std::tuple{got, h, left, right};
  };
  for (const std::int64_t n : {std::int64_t(4000), std::int64_t(400000)}) {  // summed again, estimated
    CAPTURE(n);
    const auto [good, h, left, right] = run(n);
    const judgement j = judge(good, 4, h, left, right);
    CHECK(j.ok);
    CHECK(j.summed + j.estimated == 4);
    CHECK((n > sum_jobs_up_to ? j.estimated : j.summed) == 4);
    received bad = good;
    bad.replies[2] = 0;  // lost
    bad.total -= bad.area[2];
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
    bad = good;
    bad.replies[1] = 2;  // answered twice
    bad.total += bad.area[1];
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
    CHECK(judge(bad, 4, h, left, right).why == "job 1 replied 2 times");
    bad = good;
    bad.strays = 1;
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
    bad = good;
    bad.area[0] = worker_area(1 + h, 2 + h, h);  // its range off by one trapezoid
    bad.total = bad.area[0] + bad.area[1] + bad.area[2] + bad.area[3];
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
    bad = good;
    bad.area[3] *= 1 + 1e-6;
    bad.total = bad.area[0] + bad.area[1] + bad.area[2] + bad.area[3];
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
    bad = good;
    bad.total += 1e-9;  // the master's sum is not its replies'
    CHECK_FALSE(judge(bad, 4, h, left, right).ok);
  }
  // summed again, a job's area must be its sum bit for bit
  auto [good, h, left, right] = run(4000);
  good.area[1] = std::nextafter(good.area[1], 1.0);
  CHECK_FALSE(judge(good, 4, h, left, right).ok);
}

TEST_CASE("recmatmul: the recursive product passes Savina's closed form, a block missed, doubled or misplaced fails") {
  using namespace savina_recmatmul;
  constexpr std::size_t n = 16;
  std::vector<double> a, b, c(n * n, 0);
  fill_inputs(a, b, n);
  // The split recursion two levels down, leaves multiplied in order (as the workers would).
  std::vector<block> leaves, todo{{0, 0, 0, 0, 0, 0, n, 0}};
  while (!todo.empty()) {
    block w = todo.back(), parts[8];
    todo.pop_back();
    if (num_blocks(n, w.depth) > 16) {
      split(w, parts);
      todo.insert(todo.end(), parts, parts + 8);
    } else {
      leaves.push_back(w);
    }
  }
  REQUIRE(leaves.size() == 64);
  CHECK(unpack(word_a(leaves[5]), word_b(leaves[5])).sc_b == leaves[5].sc_b);
  for (const block& w : leaves) multiply(a.data(), b.data(), c.data(), n, w);
  CHECK(product_ok(c, n));
  auto missing = c;
  std::fill(missing.begin(), missing.end(), 0.0);
  for (std::size_t i = 1; i < leaves.size(); ++i) multiply(a.data(), b.data(), missing.data(), n, leaves[i]);
  CHECK_FALSE(product_ok(missing, n));
  auto twice = c;
  multiply(a.data(), b.data(), twice.data(), n, leaves.back());
  CHECK_FALSE(product_ok(twice, n));
  auto swapped = c;
  std::swap(swapped[1 * n + 2], swapped[2 * n + 3]);
  CHECK_FALSE(product_ok(swapped, n));
}

TEST_CASE("radixsort: the validator must receive the input sorted, a value out of place, lost or changed fails") {
  using namespace savina_radixsort;
  const auto in = input(200, 1 << 12, 7);
  CHECK(stages(std::uint64_t(1) << 60) == 60);
  CHECK(std::all_of(in.begin(), in.end(), [](std::uint64_t v) { return v < (1 << 12); }));
  auto out = in;
  std::sort(out.begin(), out.end());
  REQUIRE(out.front() != out.back());
  CHECK(sorted_permutation_ok(out, in));
  CHECK_FALSE(sorted_permutation_ok(in, in));  // the input itself is not sorted
  auto swapped = out;
  std::swap(swapped[10], swapped[150]);
  CHECK_FALSE(sorted_permutation_ok(swapped, in));
  auto lost = out;
  lost.pop_back();
  CHECK_FALSE(sorted_permutation_ok(lost, in));
  auto changed = out;
  changed[0] = changed[1];  // still sorted, but not the input
  CHECK_FALSE(sorted_permutation_ok(changed, in));
}

TEST_CASE("bitonicsort: Savina's network has Savina's message count and sorts, a compare-exchange turned the wrong way fails") {
  using namespace savina_bitonicsort;
  // Counted by hand from Savina's actors: n = 2 is the source, 5 wrappers and splitter, a
  // compare-exchange, a joiner, the adapter and the validator; n = 4 adds a merge stage of one
  // step and a partition of two compare-exchanges (22 messages a value, 28 exits).
  CHECK(run_sequentially(build(2), {5, 3}).messages == 1 + 2 * 8 + 8);
  CHECK(run_sequentially(build(4), {5, 3, 9, 1}).messages == 1 + 4 * 22 + 28);
  const auto in = savina_radixsort::input(32, 1000, 3);
  const network net = build(32);
  const run_result r = run_sequentially(net, in);
  CHECK(savina_radixsort::sorted_permutation_ok(r.out, in));
  for (std::uint32_t i = 0; i < net.nodes.size(); ++i) {
    if (net.nodes[i].k != kind::compare) continue;
    network wrong = net;
    wrong.nodes[i].up = !wrong.nodes[i].up;
    CHECK_FALSE(savina_radixsort::sorted_permutation_ok(run_sequentially(wrong, in).out, in));
    break;
  }
}

TEST_CASE("apsp: block iterations give Floyd-Warshall's distances, a pivot skipped or a path too short fails") {
  using namespace savina_apsp;
  constexpr std::uint32_t n = 12, b = 6;  // 2 x 2 blocks, as the actors hold them
  const auto g = graph(n, 100, 5);
  const auto reference = floyd_warshall(g, n);
  // Floyd-Warshall by blocks: iteration k from the blocks iteration k - 1 left, the pivot row and
  // column read from the blocks that hold them.
  auto by_blocks = [&](std::uint32_t skip) {
    std::vector<std::vector<std::int64_t>> blk;
    for (std::uint32_t id = 0; id < 4; ++id) blk.push_back(block_of(g, n, b, id / 2, id % 2));
    for (std::uint32_t k = 0; k < n; ++k) {
      if (k == skip) continue;
      auto next = blk;
      for (std::uint32_t id = 0; id < 4; ++id)
        relax(blk[id].data(), blk[(id / 2) * 2 + k / b].data(), k % b, blk[(k / b) * 2 + id % 2].data(), k % b,
              next[id].data(), b);
      blk = next;
    }
    std::vector<std::int64_t> all(n * n);
    for (std::uint32_t id = 0; id < 4; ++id)
      for (std::uint32_t i = 0; i < b; ++i)
        for (std::uint32_t j = 0; j < b; ++j) all[((id / 2) * b + i) * n + (id % 2) * b + j] = blk[id][i * b + j];
    return all;
  };
  CHECK(distances_ok(by_blocks(n), reference));
  CHECK_FALSE(distances_ok(g, reference));  // no iteration at all
  bool some_pivot_matters = false;
  for (std::uint32_t k = 0; k < n; ++k) some_pivot_matters |= !distances_ok(by_blocks(k), reference);
  CHECK(some_pivot_matters);
  auto short_path = reference;
  short_path[1 * n + 7] -= 1;
  CHECK_FALSE(distances_ok(short_path, reference));
}

TEST_CASE("sor: the grid's neighbors are Savina's, and the total of the sweeps passes, one sweep short or a point off fails") {
  using namespace savina_sor;
  constexpr std::uint32_t s = 6;
  CHECK(neighbors(0, 0, s) == std::vector<std::uint32_t>{1 * s + 0, 0 * s + 1});
  CHECK(neighbors(0, 3, s) == std::vector<std::uint32_t>{1 * s + 3, 0 * s + 4, 0 * s + 2});
  CHECK(neighbors(2, 3, s) == std::vector<std::uint32_t>{2 * s + 4, 3 * s + 3, 2 * s + 2, 1 * s + 3});
  for (std::uint32_t x = 0; x < s; ++x)
    for (std::uint32_t y = 0; y < s; ++y)
      for (std::uint32_t n : neighbors(x, y, s)) CHECK(color(n / s, n % s) != color(x, y));
  const auto start = initial(s, 11);
  auto total = [](const std::vector<double>& v) {
    double t = 0;
    for (double x : v) t += x;
    return t;
  };
  const auto done = sweeps(start, s, 10, 1.25);
  const double reference = total(done);
  std::vector<double> backwards(done.rbegin(), done.rend());
  CHECK(total_ok(total(backwards), reference));
  CHECK_FALSE(total_ok(total(sweeps(start, s, 9, 1.25)), reference));
  CHECK_FALSE(total_ok(total(start), reference));
  auto off = done;
  off[7] += 1e-6 * std::fabs(off[7]);
  CHECK_FALSE(total_ok(total(off), reference));
}

TEST_CASE("filterbank: the pipeline's filters behave as Savina's, and the sink's values pass, one lost, shifted or changed fails") {
  using namespace savina_filterbank;
  delay d(3);
  CHECK(d.push(1) == 0);
  d.push(2);
  d.push(3);
  CHECK(d.push(4) == 1);
  const std::vector<double> c{1, 10, 100};
  fir f(c);
  CHECK_FALSE(f.push(1));
  CHECK_FALSE(f.push(2));
  REQUIRE(f.push(3));
  CHECK(f.output() == 1 * 100 + 2 * 10 + 3 * 1);
  REQUIRE(f.push(4));  // the ring is not rotated: 4 takes 1's place, and 1's coefficient
  CHECK(f.output() == 4 * 100 + 2 * 10 + 3 * 1);
  CHECK(fir_outputs(34816, 16384) == 18433);
  CHECK(fir_outputs(18433, 16384) == 2050);
  const auto out = reference(300, 64, 3);
  REQUIRE(out.sink.size() == fir_outputs(fir_outputs(300, 64), 64));
  CHECK(std::any_of(out.sink.begin(), out.sink.end(), [](double v) { return v != 0; }));
  REQUIRE(out.kept.size() == 3);
  CHECK(out.kept[1].size() == 4);  // outputs 0, 64, 128 and 192 of 237
  CHECK(outputs_ok(out, reference(300, 64, 3)));
  auto lost = out;
  lost.sink.pop_back();
  CHECK_FALSE(outputs_ok(lost, out));
  CHECK_FALSE(outputs_ok(reference(301, 64, 3), out));
  CHECK_FALSE(outputs_ok(reference(300, 64, 2), out));
  auto changed = out;
  changed.sink[changed.sink.size() / 2] = std::nextafter(changed.sink[changed.sink.size() / 2], 1e300);
  CHECK_FALSE(outputs_ok(changed, out));
  auto wrong_filter = out;
  wrong_filter.kept[2][1] += 1;
  CHECK_FALSE(outputs_ok(wrong_filter, out));
}

TEST_CASE("piprecision: terms round as Savina's BigDecimal, the sum is pi, a term lost or a digit wrong fails") {
  using namespace savina_piprecision;
  auto value = [](const limbs& n) { return n[0] | std::uint64_t(n.size() > 1 ? n[1] : 0) << 32; };
  // Scale 3, term 1: 4/9 -> 444, 2/12 -> 167, 1/13 -> 77, 1/14 -> 71; 129 / 16 = 8.06 -> 8.
  const scale_constants three(3);
  CHECK(value(bbp_term(three, 1)) == 8);
  CHECK(value(bbp_term(three, 0)) == 4000 - 500 - 200 - 167);
  // Half to even: 2/4 at scale 0 is 0.5 -> 0; 24/16 = 1.5 -> 2, 40/16 = 2.5 -> 2, 41/16 -> 3.
  limbs q;
  div_round(limbs{2, 0}, 4, q);
  CHECK(value(q) == 0);
  for (auto [n, r] : {std::pair{24u, 2u}, {40u, 2u}, {41u, 3u}, {8u, 0u}, {7u, 0u}}) {
    limbs x{n, 0};
    shift_round(x, 4);
    CHECK(value(x) == r);
  }
  limbs wide{0, 0, 1};  // 2^64 / 2^36 = 2^28, across limbs
  shift_round(wide, 36);
  CHECK(value(wide) == 1u << 28);
  const scale_constants c(300);
  const std::uint32_t terms = terms_requested(c, 4);
  CHECK(terms > 40);
  limbs sum(c.one.size(), 0), missing(c.one.size(), 0);
  for (std::uint32_t k = 0; k < terms; ++k) {
    add(sum, bbp_term(c, k));
    if (k != 7) add(missing, bbp_term(c, k));
  }
  CHECK(decimal(sum, 300, 20) == "3.14159265358979323846");
  CHECK(pi_ok(sum, 300));
  CHECK_FALSE(pi_ok(missing, 300));
  auto off = sum;
  off[3] ^= 1;  // about 10^-271 off
  CHECK_FALSE(pi_ok(off, 300));
}
