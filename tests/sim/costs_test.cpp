// Cost profiles: taken on real cores (the turn's own code, burn_ns and sends left out), written and read back, and charged in simulation (seeded, in place of did_work_ns).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "models/cost_profile.hpp"
#include "models/log_histogram.hpp"
#include "runtime/run_threads.hpp"
#include "scenarios/cost_profile_file.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"

TEST_SUITE_BEGIN("sim");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;

namespace cost_test {

/// Counts down by messages to itself (tag 1), then sends one tag-2 message. Each tag-1 turn
/// spins `own_us` on the steady clock (its own code), burns `burn_us` and declares `declared_us`.
struct probe final : behavior {
  std::uint64_t own_us, burn_us, declared_us;
  std::uint64_t* seen;
  probe(std::uint64_t o, std::uint64_t b, std::uint64_t d, std::uint64_t* s) : own_us(o), burn_us(b), declared_us(d), seen(s) {}
  void receive(context& ctx, const message& m) override {
    ++*seen;
    if (m.tag == 2) return;
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(own_us);
    while (own_us && std::chrono::steady_clock::now() < until) {
    }
    if (burn_us) ctx.burn_ns(burn_us * 1000);
    if (declared_us) ctx.did_work_ns(declared_us * 1000);
    ctx.send(ctx.self(), m.a > 1 ? message{m.a - 1, 0, 1} : message{0, 0, 2});
  }
};

struct countdown final : workload {
  std::uint64_t turns, own_us, burn_us, declared_us, seen = 0;
  explicit countdown(const workload_params& p)
      : turns(std::uint64_t(p.integer("turns"))), own_us(std::uint64_t(p.integer("own_us"))),
        burn_us(std::uint64_t(p.integer("burn_us"))), declared_us(std::uint64_t(p.integer("declared_us"))) {}
  void start(context& ctx) override {
    ctx.send(ctx.spawn_as<probe>({}, own_us, burn_us, declared_us, &seen), message{turns, 0, 1});
  }
  std::uint64_t checksum() const override { return seen; }
  std::uint64_t reference_checksum() const override { return turns + 1; }
  std::uint64_t expected_messages() const override { return turns + 1; }
};

const bool registered = register_workload(
    {"test-cost-countdown", "an actor counts down by messages to itself, working a set time each turn",
     {{"turns", std::int64_t(100), "tag-1 turns"},
      {"own_us", std::int64_t(0), "us of its own code a turn", 0},
      {"burn_us", std::int64_t(0), "us burned a turn", 0},
      {"declared_us", std::int64_t(0), "us declared a turn", 0}},
     [](const workload_params& p, std::uint64_t) { return std::make_unique<countdown>(p); }});

scenario countdown_scenario(std::int64_t turns, std::int64_t own_us, std::int64_t burn_us, std::int64_t declared_us) {
  scenario s;
  s.name = "cost-countdown";
  s.workload = "test-cost-countdown";
  s.workload_params = {{"turns", turns}, {"own_us", own_us}, {"burn_us", burn_us}, {"declared_us", declared_us}};
  s.sched.policy = "stealing";
  s.sched.workers = 1;
  return s;
}

/// A kind whose every quantile is `ns`.
turn_kind_cost flat(std::uint32_t tag, double ns) {
  turn_kind_cost k;
  k.behavior = "cost_test::probe";
  k.tag = tag;
  k.turns = 1;
  k.mean_ns = ns;
  k.quantiles_ns.assign(turn_kind_cost::quantile_count, ns);
  return k;
}

double simulated_ns(const scenario& s, std::shared_ptr<const cost_profile> p, sim_result* out = nullptr) {
  sim_options o;
  o.cores = 1;
  o.costs = std::move(p);
  o.costs_source = o.costs ? "test profile" : "";
  sim_result r = simulate(s, o);
  REQUIRE(r.ok());
  if (out) *out = r;
  return r.sim_s * 1e9;
}

}  // namespace cost_test

using namespace cost_test;

TEST_CASE("a log-linear histogram's quantiles land within a bucket of the values'") {
  log_histogram h;
  for (std::uint64_t v = 1; v <= 10000; ++v) h.add(v);
  CHECK(h.count() == 10000);
  CHECK(h.max() == 10000);
  CHECK(h.mean() == doctest::Approx(5000.5));
  for (double q : {0.01, 0.5, 0.9, 0.99, 1.0}) {
    CAPTURE(q);
    CHECK(double(h.quantile(q)) == doctest::Approx(q * 10000).epsilon(0.0625));
  }
  for (std::uint64_t v : {0ull, 15ull, 16ull, 17ull, 1000ull, 1ull << 40, ~0ull}) {
    CAPTURE(v);
    const unsigned b = log_histogram::bucket_of(v);
    REQUIRE(b < log_histogram::buckets);
    CHECK(log_histogram::low(b) <= v);
    if (b + 1 < log_histogram::buckets) CHECK(v < log_histogram::low(b + 1));
  }
  log_histogram a, b;
  a.add(100);
  b.add(300);
  a.merge(b);
  CHECK(a.count() == 2);
  CHECK(a.max() == 300);
}

TEST_CASE("a profile charges each turn of a kind it has, in place of what the turn declared" * doctest::timeout(300)) {
  const std::int64_t n = 200;
  const scenario s = countdown_scenario(n, 0, 0, 5);  // each tag-1 turn declares 5 us
  const double declared = simulated_ns(s, nullptr);
  auto p = std::make_shared<cost_profile>();
  p->kinds.push_back(flat(1, 12000));  // a profile says 12 us: it replaces the 5 us declared
  sim_result r;
  const double charged = simulated_ns(s, p, &r);
  CHECK(charged - declared == doctest::Approx(double(n) * (12000 - 5000)).epsilon(0.01));
  CHECK(r.costs.charged_turns == std::uint64_t(n));
  CHECK(r.costs.charged_ns == doctest::Approx(double(n) * 12000));
  // the tag-2 turn is a kind the profile lacks: charged what it declared (nothing), and named
  CHECK(r.costs.unprofiled_turns == 1);
  REQUIRE(r.costs.unprofiled_kinds.size() == 1);
  CHECK(r.costs.unprofiled_kinds[0] == "cost_test::probe tag 2");
  // burn_ns is charged as always: the profile left it out
  const scenario burning = countdown_scenario(n, 0, 3, 0);
  CHECK(simulated_ns(burning, p) - simulated_ns(burning, nullptr) == doctest::Approx(double(n) * 12000).epsilon(0.01));
}

TEST_CASE("a profile's draws are seeded: the same run twice is identical, another seed differs" * doctest::timeout(300)) {
  auto p = std::make_shared<cost_profile>();
  turn_kind_cost k = flat(1, 0);
  for (unsigned i = 0; i < turn_kind_cost::quantile_count; ++i) k.quantiles_ns[i] = 1000.0 + 500.0 * i;
  k.mean_ns = 6000;
  p->kinds.push_back(k);
  scenario s = countdown_scenario(2000, 0, 0, 0);
  sim_result a, b, c;
  simulated_ns(s, p, &a);
  simulated_ns(s, p, &b);
  CHECK(a.event_hash == b.event_hash);
  CHECK(a.sim_s == b.sim_s);
  // the draws' mean is the measured mean, whatever the quantiles' shape
  CHECK(a.costs.charged_ns / 2000 == doctest::Approx(6000).epsilon(0.05));
  s.seed = 7;
  simulated_ns(s, p, &c);
  CHECK(c.event_hash != a.event_hash);
}

TEST_CASE("a real run's profile holds each kind's own code: burn_ns and sends left out" * doctest::timeout(300)) {
  // own code 300 us and burn 400 us a turn: measured near 300, never near 700 (burn counted) or 0
  cost_profile p;
  const run_result r = run_on_threads(countdown_scenario(40, 300, 400, 0), trace_request{}, nullptr, &p);
  REQUIRE(r.ok());
  CHECK(p.workload == "test-cost-countdown");
  CHECK(p.workers == 1);
  REQUIRE(p.kinds.size() == 2);
  const turn_kind_cost& k = p.kinds[0];
  CHECK(k.behavior == "cost_test::probe");
  CHECK(k.tag == 1);
  CHECK(k.turns + p.preempted_turns >= 39);  // a preempted turn is left out, never measured with the gap
  CHECK(k.turns + p.preempted_turns <= 40);
  CAPTURE(k.mean_ns);
  CHECK(k.quantiles_ns[10] >= 250e3);  // the spin is at least 300 us of its own code
  CHECK(k.quantiles_ns[10] < 600e3);   // and the 400 us burned is not in it
  CHECK(p.kinds[1].tag == 2);
}

TEST_CASE("a profile file reads back what was written, and a bad one fails at its line") {
  cost_profile p;
  p.scenario = "s \"quoted\"";
  p.workload = "w";
  p.workers = 2;
  p.preempted_turns = 3;
  p.kinds.push_back(flat(4, 1234.5));
  const std::string path = "costs_test_profile.toml";
  {
    std::ofstream(path) << cost_profile_text(p);
  }
  const cost_profile q = read_cost_profile(path);
  CHECK(q.scenario == p.scenario);
  CHECK(q.workers == 2);
  CHECK(q.preempted_turns == 3);
  REQUIRE(q.kinds.size() == 1);
  CHECK(q.kinds[0].behavior == "cost_test::probe");
  CHECK(q.kinds[0].tag == 4);
  CHECK(q.kinds[0].quantiles_ns[20] == doctest::Approx(1234.5));
  {
    std::ofstream(path) << "scenario = \"x\"\nworkload = \"w\"\nworkers = 1\n\n[[kind]]\nbehavior = \"b\"\ntag = 1\n"
                           "turns = 5\nmean_ns = 10.0\nquantiles_ns = [1.0, 2.0]\n";
  }
  try {
    read_cost_profile(path);
    FAIL("a profile with 2 quantiles was read");
  } catch (const scenario_error& e) {
    CHECK(e.line() == 10);  // the quantiles_ns line
    CHECK(std::string(e.what()).find("21 numbers") != std::string::npos);
  }
  std::remove(path.c_str());
}
