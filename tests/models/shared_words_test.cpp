// Shared words (behavior.hpp, context::shared_load and shared_cas): atomic across actors on
// every worker, seen by the injector, bounded, and charged in simulation like any platform atomic.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/behavior.hpp"
#include "platform_harness.hpp"
#include "run_on.hpp"
#include "sim/machine_model.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

namespace {

scenario shared_scenario(const std::string& workload, const std::string& policy, std::uint32_t workers,
                         std::map<std::string, param_value> params = {}) {
  scenario s;
  s.name = workload + "-" + policy;
  s.workload = workload;
  s.workload_params = std::move(params);
  s.sched.policy = policy;
  s.sched.workers = workers;
  s.sched.checks = true;
  return s;
}

/// Claimers race through the same words in the same order, each trying to claim every word
/// (0 -> its id), and after each try add one to word 0 by a compare-and-swap loop, so that
/// claimers running at once on two workers keep colliding on word 0. A judge, told by every
/// claimer that it is through, reads the table back. The injector sets word 0 first.
struct claims_workload final : workload {
  static constexpr std::uint64_t base = 1000;  // word 0 after start
  std::uint64_t claimers, words;
  actor_ref judge_ref;
  std::string wrong;  // written by the injector, then by the judge only
  std::uint64_t counter = 0;

  struct claimer final : behavior {
    claims_workload& w;
    std::uint64_t id;
    std::vector<std::uint64_t> won;
    claimer(claims_workload& cw, std::uint64_t i) : w(cw), id(i) {}
    void receive(context& ctx, const message&) override {
      for (std::uint64_t i = 1; i <= w.words; ++i) {
        std::uint64_t seen = 0;
        if (ctx.shared_cas(i, seen, id))
          won.push_back(i);
        else if (seen == 0 || seen > w.claimers)
          throw std::runtime_error("a failed claim reported " + std::to_string(seen));
        std::uint64_t c = ctx.shared_load(0);
        while (!ctx.shared_cas(0, c, c + 1)) {
        }
      }
      ctx.send(w.judge_ref, message{id});
    }
  };
  std::vector<claimer*> cs;

  struct judge final : behavior {
    claims_workload& w;
    std::uint64_t through = 0;
    explicit judge(claims_workload& cw) : w(cw) {}
    void receive(context& ctx, const message&) override {
      if (++through < w.claimers) return;
      std::vector<std::uint64_t> owner(w.words + 1, 0);
      for (const claimer* c : w.cs)
        for (std::uint64_t i : c->won) {
          if (owner[i] != 0) w.wrong += "word " + std::to_string(i) + " claimed twice; ";
          owner[i] = c->id;
        }
      for (std::uint64_t i = 1; i <= w.words; ++i)
        if (std::uint64_t v = ctx.shared_load(i); v == 0 || v != owner[i])
          w.wrong += "word " + std::to_string(i) + " holds " + std::to_string(v) + ", claimed by " +
                     std::to_string(owner[i]) + "; ";
      w.counter = ctx.shared_load(0);
    }
  };

  claims_workload(std::uint64_t c, std::uint64_t n) : claimers(c), words(n) {}
  std::uint64_t shared_words() const override { return words + 1; }
  void start(context& ctx) override {
    std::uint64_t zero = 0;
    if (!ctx.shared_cas(0, zero, base) || ctx.shared_load(0) != base) wrong += "the injector's CAS did not take; ";
    judge_ref = ctx.spawn_as<judge>({.name = "judge"}, *this);
    std::vector<actor_ref> refs;
    for (std::uint64_t i = 1; i <= claimers; ++i) {
      auto c = ctx.spawn_as<claimer>({}, *this, i);
      cs.push_back(&c.behavior);
      refs.push_back(c.ref);
    }
    for (actor_ref c : refs) ctx.send(c, message{});
  }
  std::uint64_t checksum() const override { return counter; }
  std::uint64_t reference_checksum() const override { return base + claimers * words; }
  std::uint64_t expected_messages() const override { return 2 * claimers; }
  bool result_ok() const override { return wrong.empty(); }
  std::string detail() const override { return wrong; }
};

const bool claims_registered = register_workload(
    {"test-shared-claims",
     "claimers race to claim the same shared words and to count on one",
     {{"claimers", std::int64_t(8), "claimer actors"}, {"words", std::int64_t(2000), "words to claim"}},
     [](const workload_params& p, std::uint64_t) {
       return std::make_unique<claims_workload>(std::uint64_t(p.integer("claimers")), std::uint64_t(p.integer("words")));
     }});

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("shared words: actors racing to claim the same words claim each exactly once, and a "
                          "compare-and-swap counter they all hit loses no update" *
                              doctest::test_suite("concurrency") * doctest::timeout(300),
                          P, claims) {
  REQUIRE(claims_registered);
  for (const auto& policy : policy_names()) {
    if (policy == "donation") continue;  // needs groups, which claimers are not
    for (std::uint32_t workers : {2u, 4u}) {
      CAPTURE(policy);
      CAPTURE(workers);
      const run_result r = run_on<P>(shared_scenario("test-shared-claims", policy, workers,
                                                     {{"words", std::int64_t(scaled<P>(20000))}}),
                                     2);
      CAPTURE(r.detail);
      for (const auto& e : r.errors) CAPTURE(e);
      CHECK(r.errors.empty());
      CHECK(r.workload_ok);                // every word claimed once, the table agrees with the winners
      CHECK(r.checksum == r.reference);    // every increment of word 0 counted
      CHECK(r.ok());
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(claims, both_platforms);

namespace {
/// An actor that reads (op 0) or claims (op 1) a word past the table (its size: 4) fails with
/// the index. One such actor per run: in the simulator, an exception thrown on a SimGrid
/// context's stack leaves AddressSanitizer's poison of the unwound frames behind (SimGrid's
/// switches are not announced to it), and a second throw at the same depth reads as an overflow.
struct bounds_workload final : workload {
  explicit bounds_workload(std::uint64_t op) : op_(op) {}
  struct reader final : behavior {
    void receive(context& ctx, const message& m) override {
      std::uint64_t expected = 0;
      if (m.a == 0) (void)ctx.shared_load(4);
      else (void)ctx.shared_cas(4, expected, 1);
    }
  };
  std::uint64_t shared_words() const override { return 4; }
  void start(context& ctx) override {
    ctx.send(ctx.spawn_as<reader>({.name = op_ == 0 ? "past-the-end-load" : "past-the-end-cas"}), message{op_});
  }
  std::uint64_t checksum() const override { return 0; }
  std::uint64_t reference_checksum() const override { return 0; }
  std::uint64_t expected_messages() const override { return 1; }
  std::uint64_t op_;
};
const bool bounds_registered =
    register_workload({"test-shared-bounds-load", "an actor reads a shared word past the table", {},
                       [](const workload_params&, std::uint64_t) { return std::make_unique<bounds_workload>(0); }}) &&
    register_workload({"test-shared-bounds-cas", "an actor claims a shared word past the table", {},
                       [](const workload_params&, std::uint64_t) { return std::make_unique<bounds_workload>(1); }});
}  // namespace

TEST_CASE_TEMPLATE_DEFINE("shared words: an index past the table fails the actor, naming the index and the size" *
                              doctest::timeout(60),
                          P, bounds) {
  REQUIRE(bounds_registered);
  for (const char* which : {"load", "cas"}) {
    CAPTURE(which);
    const run_result r = run_on<P>(shared_scenario(std::string("test-shared-bounds-") + which, "stealing", 2), 2);
    REQUIRE(r.errors.size() == 1);
    const std::string& e = r.errors[0];
    CAPTURE(e);
    CHECK(e.find(std::string("past-the-end-") + which) != std::string::npos);
    CHECK(e.find("shared word 4 of a table of 4") != std::string::npos);
    CHECK_FALSE(r.ok());
  }
}
TEST_CASE_TEMPLATE_APPLY(bounds, both_platforms);

#if !defined(TWINSCHED_TSAN)
namespace {
/// One actor, one message: `n` loads or compare-and-swaps of distinct words (op 1, 2), or
/// nothing (op 0), so the simulated run's length differs by what those operations cost.
struct cost_workload final : workload {
  std::uint64_t op, n;
  struct toucher final : behavior {
    const cost_workload& w;
    explicit toucher(const cost_workload& cw) : w(cw) {}
    void receive(context& ctx, const message&) override {
      for (std::uint64_t i = 0; i < w.n; ++i) {
        std::uint64_t expected = 0;
        if (w.op == 1) (void)ctx.shared_load(i);
        if (w.op == 2 && !ctx.shared_cas(i, expected, 1)) throw std::runtime_error("a fresh word was not 0");
      }
    }
  };
  cost_workload(std::uint64_t o, std::uint64_t count) : op(o), n(count) {}
  std::uint64_t shared_words() const override { return n; }
  void start(context& ctx) override { ctx.send(ctx.spawn_as<toucher>({}, *this), message{}); }
  std::uint64_t checksum() const override { return 0; }
  std::uint64_t reference_checksum() const override { return 0; }
  std::uint64_t expected_messages() const override { return 1; }
};
const bool cost_registered = register_workload(
    {"test-shared-cost", "one actor loads or claims shared words", {{"op", std::int64_t(0), "0 none, 1 load, 2 cas", 0, 2}},
     [](const workload_params& p, std::uint64_t) {
       return std::make_unique<cost_workload>(std::uint64_t(p.integer("op")), 20000);
     }});
}  // namespace

TEST_CASE("shared words: in simulation each load costs the machine's atomic load and each compare-and-swap its "
          "atomic read-modify-write" * doctest::test_suite("sim") * doctest::timeout(120)) {
  REQUIRE(cost_registered);
  const machine_model m = load_machine("default");
  REQUIRE(m.atomic_rmw > m.atomic_load);
  REQUIRE(m.atomic_load > 0);
  double took[3] = {};
  for (std::int64_t op : {0, 1, 2}) {
    sim_options o;
    o.cores = 2;
    const sim_result r = simulate(shared_scenario("test-shared-cost", "stealing", 2, {{"op", op}}), o);
    CAPTURE(op);
    REQUIRE(r.ok());
    took[op] = r.sim_s * 1e9;
  }
  // The one actor's turn is the run's critical path: it grows by every operation's cost.
  CHECK(took[1] - took[0] >= 0.9 * 20000 * m.atomic_load);
  CHECK(took[2] - took[0] >= 0.9 * 20000 * m.atomic_rmw);
  CHECK(took[2] > took[1]);
}
#endif

TEST_SUITE_END();
