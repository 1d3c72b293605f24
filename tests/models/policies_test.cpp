// The four balancing policies do what they are for: configuration checks, donation, sharing's hand-offs, adaptive scaling.
#include <doctest/doctest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "models/behavior.hpp"
#include "models/mailbox.hpp"
#include "platform_harness.hpp"
#include "run_on.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

namespace {

scenario base(const std::string& workload, const std::string& policy) {
  scenario s;
  s.name = "policies-" + workload;
  s.workload = workload;
  s.sched.policy = policy;
  s.sched.checks = true;
  return s;
}

/// validate()'s message, or "(accepted)".
std::string rejection(const scenario& s) {
  try {
    validate(s);
  } catch (const config_error& e) {
    return e.what();
  }
  return "(accepted)";
}

std::uint64_t total(const run_result& r, std::uint64_t worker_stats::*field) {
  std::uint64_t n = 0;
  for (const auto& w : r.per_worker) n += w.*field;
  return n;
}

}  // namespace

// ---- bad configurations: config_error, which the CLI reports with exit code 2 -----------
// validate() reads the scenario before either platform is made: these cases need no platform.

TEST_CASE("donation on a workload without a group of equals is rejected") {
  const std::string e = rejection(base("forward", "donation"));
  CHECK(e.find("donation needs a workload with a group of equal actors") != std::string::npos);
  CHECK(e.find("forward") != std::string::npos);
}

TEST_CASE("donation on pool, which declares a group of equals, is accepted") {
  CHECK(rejection(base("pool", "donation")) == "(accepted)");
}

TEST_CASE("min_workers above max_workers is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.min_workers = 4;
  s.sched.max_workers = 2;
  CHECK(rejection(s).find("min_workers (4) must not exceed max_workers (2)") != std::string::npos);
}

TEST_CASE("a zero donate_threshold is rejected") {
  scenario s = base("pool", "donation");
  s.sched.donate_threshold = 0;
  CHECK(rejection(s).find("donate_threshold must be at least 1") != std::string::npos);
}

TEST_CASE("a zero overload_after is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.overload_after = 0;
  CHECK(rejection(s).find("overload_after must be at least 1") != std::string::npos);
}

TEST_CASE("a zero retire_after is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.retire_after_ns = 0;
  CHECK(rejection(s).find("retire_after_us must be at least 1") != std::string::npos);
}

TEST_CASE("zero min_workers is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.min_workers = 0;
  CHECK(rejection(s).find("min_workers must be at least 1") != std::string::npos);
}

TEST_CASE("adaptive starting with fewer workers than min_workers is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.workers = 1;
  s.sched.min_workers = 2;
  s.sched.max_workers = 4;
  CHECK(rejection(s).find("adaptive: workers (1) must be at least min_workers (2)") != std::string::npos);
}

TEST_CASE("adaptive starting with more workers than max_workers is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.workers = 3;
  s.sched.max_workers = 2;
  CHECK(rejection(s).find("adaptive: workers (3) must not exceed max_workers (2)") != std::string::npos);
}

TEST_CASE("a max_workers above 1024 is rejected") {
  scenario s = base("burst", "adaptive");
  s.sched.max_workers = 5000;
  CHECK(rejection(s).find("max_workers must be at most 1024") != std::string::npos);
}

TEST_CASE_TEMPLATE("each backend refuses a scenario the checks reject", P, thread_platform, sim_platform) {
  CHECK_THROWS_AS(run_on<P>(base("forward", "donation")), config_error);
}

TEST_CASE("every policy is listed by name and accepted") {
  for (const char* p : {"shared-queue", "distribution", "sharing", "stealing", "donation", "adaptive"}) {
    CAPTURE(p);
    CHECK(std::find(policy_names().begin(), policy_names().end(), p) != policy_names().end());
    CHECK(rejection(base("pool", p)) == "(accepted)");
  }
}

// ---- the mailbox operation donation relies on (mailbox.hpp: take_newest) ---------------------

namespace {
template <class P>
std::vector<std::uint64_t> drain(mailbox<P>& box) {
  std::vector<std::uint64_t> ids;
  for (;;) {
    envelope<P>*e = nullptr, *spent = nullptr;
    auto st = box.pop(e, spent);
    if (st == mailbox<P>::pop_status::empty) return ids;
    if (st == mailbox<P>::pop_status::item) ids.push_back(e->id);
  }
}
}  // namespace

TEST_CASE_TEMPLATE("take_newest unlinks the newest eligible messages but never the last one, and the rest stay in order", P,
                   thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node dummy;
    mailbox<P> box;
    REQUIRE(box.try_claim(&dummy));  // owned, with a dummy: the state a worker's turn sees
    std::vector<node> es(10);
    for (std::size_t i = 0; i < es.size(); ++i) {
      es[i].id = i + 1;
      es[i].msg.flags = i == 7 ? message_donated : 0;  // message 8 was donated once already
      box.push(&es[i]);
    }
    CHECK(box.backlog(100) == 10);
    CHECK(box.backlog(3) == 3);
    node* out[16];
    std::size_t n = box.take_newest(100, 4, [](const message& m) { return (m.flags & message_donated) == 0; }, out);
    REQUIRE(n == 4);
    // 10 is the last one reached (producers may be linking onto it), 8 is not eligible
    CHECK(out[0]->id == 5);
    CHECK(out[1]->id == 6);
    CHECK(out[2]->id == 7);
    CHECK(out[3]->id == 9);
    CHECK(box.backlog(100) == 6);
    CHECK(drain(box) == std::vector<std::uint64_t>{1, 2, 3, 4, 8, 10});
  });
}

namespace {
struct take_newest_result {
  std::uint64_t got = 0, once = 0, left = 0;
};

/// Workers 0-2 push numbered messages; worker 3 owns the mailbox and both pops and takes
/// the newest, as a donating worker does, until every message has left it.
template <class P>
struct take_newest_racing_producers {
  static constexpr unsigned producers = 3;
  using node = envelope<P>;
  P& plat;
  const std::size_t per = std::size_t(scaled<P>(20'000));
  node dummy;
  mailbox<P> box;
  std::vector<node> es = std::vector<node>(producers * per);
  take_newest_result r;
  explicit take_newest_racing_producers(P& p) : plat(p) { box.try_claim(&dummy); }  // owned, with a dummy
  void work(unsigned w) {
    if (w < producers) {
      for (std::size_t i = 0; i < per; ++i) {
        node& e = es[w * per + i];
        e.id = w * per + i;
        box.push(&e);
      }
      return;
    }
    std::vector<int> seen(es.size(), 0);
    node* out[mailbox<P>::max_scan];
    while (r.got < es.size()) {
      node *e = nullptr, *spent = nullptr;
      bool moved = false;
      if (box.pop(e, spent) == mailbox<P>::pop_status::item) ++seen[e->id], ++r.got, moved = true;
      std::size_t n = box.take_newest(64, 8, [](const message&) { return true; }, out);
      for (std::size_t i = 0; i < n; ++i) ++seen[out[i]->id], ++r.got, moved = true;
      if (!moved) plat.spin_pause();
    }
    r.left = drain(box).size();
    r.once = std::uint64_t(std::count(seen.begin(), seen.end(), 1));
  }
  take_newest_result result() const { return r; }
};
}  // namespace

TEST_CASE_TEMPLATE_DEFINE("take_newest racing producers: every message leaves the mailbox exactly once" *
                              doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, take_newest_race) {
  auto o = on_workers<P>(4, [](P& plat) { return std::make_unique<take_newest_racing_producers<P>>(plat); });
  REQUIRE_MESSAGE(!o.aborted, o.why);
  const std::uint64_t all = 3 * std::uint64_t(scaled<P>(20'000));
  CHECK(o.result.got == all);
  CHECK(o.result.once == all);
  CHECK(o.result.left == 0);
}
TEST_CASE_TEMPLATE_APPLY(take_newest_race, both_platforms);

// ---- donation ------------------------------------------------------------------------------

TEST_CASE_TEMPLATE_DEFINE("donation drains the slow member's backlog on idle equals in pool" * doctest::test_suite("concurrency") *
                              doctest::timeout(60),
                          P, donation_pool) {
  scenario s = base("pool", "donation");
  s.workload_params = {{"bursts", std::int64_t(4)}, {"burst_size", std::int64_t(400)}, {"cost_ns", std::int64_t(2000)}};
  for (std::uint32_t workers : {1u, 2u}) {
    CAPTURE(workers);
    s.sched.workers = workers;
    run_result r = run_on<P>(s, 2);
    CHECK(r.ok());
    CHECK(total(r, &worker_stats::donations) > 0);
  }
}
TEST_CASE_TEMPLATE_APPLY(donation_pool, both_platforms);

namespace {
/// A group of `members` equals; every message goes to member 0 (the others start idle).
/// Members count the messages that reached them flagged as donated; detail() reports them
/// (in simulation the workload lives in another process).
struct flood_workload final : workload {
  static constexpr std::uint32_t members = 4;
  static constexpr std::uint64_t messages = 3000;
  /// Per member, written only by the member (one worker at a time); read after the run.
  /// Kept here, not in the behaviors, which die with the run.
  struct tally {
    std::uint64_t got = 0, donated = 0, acc = 0;
  };
  struct member final : behavior {
    tally* t;
    explicit member(tally* x) : t(x) {}
    void receive(context& ctx, const message& m) override {
      ++t->got;
      if (m.flags & message_donated) ++t->donated;
      t->acc += m.a * 2654435761u;
      ctx.burn_ns(2000);
    }
  };
  std::vector<tally> tallies = std::vector<tally>(members);
  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    for (std::uint32_t i = 0; i < members; ++i) refs.push_back(ctx.spawn(std::make_unique<member>(&tallies[i]), {.group = 7}));
    for (std::uint64_t j = 0; j < messages; ++j) ctx.send(refs[0], message{j});
  }
  std::uint64_t checksum() const override {
    std::uint64_t s = 0;
    for (auto& t : tallies) s += t.acc;
    return s;
  }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t j = 0; j < messages; ++j) s += j * 2654435761u;
    return s;
  }
  std::uint64_t expected_messages() const override { return messages; }
  bool has_groups() const override { return true; }
  std::string detail() const override {
    std::uint64_t flagged = 0;
    for (auto& t : tallies) flagged += t.donated;
    return "flagged " + std::to_string(flagged) + ", member 0 got " + std::to_string(tallies[0].got);
  }
};
const bool flood_registered = register_workload({"test-flood", "every message to one member of a group of four equals", {},
                                                 [](const workload_params&, std::uint64_t) { return std::make_unique<flood_workload>(); }});
}  // namespace

TEST_CASE_TEMPLATE_DEFINE("a donated message is never donated again" * doctest::test_suite("concurrency") * doctest::timeout(60), P,
                          donated_once) {
  // Recipients of member 0's backlog become backlogged themselves, with donated messages
  // only: if those were donated on, one message would count as two donations but arrive,
  // flagged, once.
  REQUIRE(flood_registered);
  scenario s = base("test-flood", "donation");
  for (std::uint32_t workers : {1u, 2u, 3u}) {
    CAPTURE(workers);
    s.sched.workers = workers;
    run_result r = run_on<P>(s, 3);
    CHECK(r.ok());
    std::uint64_t flagged = 0, first_got = 0;
    REQUIRE_MESSAGE(std::sscanf(r.detail.c_str(), "flagged %" SCNu64 ", member 0 got %" SCNu64, &flagged, &first_got) == 2, r.detail);
    CHECK(flagged > 0);
    CHECK(total(r, &worker_stats::donations) == flagged);
    CHECK(first_got < flood_workload::messages);  // member 0 did not process them all
  }
}
TEST_CASE_TEMPLATE_APPLY(donated_once, both_platforms);

// On threads only: validate() refuses donation on a workload without groups, and both backends
// validate a scenario; run_on_threads alone also takes a built workload, past the check.
TEST_CASE("donation leaves actors outside groups alone" * doctest::test_suite("concurrency") * doctest::timeout(60)) {
  // skewed has no groups; built and run directly (validate() would refuse the scenario)
  const workload_info& info = *find_workload("skewed");
  auto w = info.make(with_defaults(info, {{"actors", std::int64_t(50)}, {"messages", std::int64_t(3000)},
                                          {"cost_ns", std::int64_t(500)}}),
                     1);
  scheduler_config c;
  c.policy = "donation";
  c.workers = 2;
  c.checks = true;
  run_result r = run_on_threads(c, *w, 1);
  CHECK(r.ok());
  CHECK(total(r, &worker_stats::donations) == 0);
}

// ---- sharing -------------------------------------------------------------------------------

TEST_CASE_TEMPLATE_DEFINE("sharing hands pending actors to a hungry dispatcher, distribution never moves one" *
                              doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, sharing_feeds) {
  // skewed: every tenth actor is hot, and round robin over two dispatchers puts all of them
  // on dispatcher 0; dispatcher 1 runs out of work early and goes hungry.
  scenario s = base("skewed", "sharing");
  s.workload_params = {{"actors", std::int64_t(200)}, {"messages", std::int64_t(20000)}, {"cost_ns", std::int64_t(2000)}};
  s.sched.workers = 2;
  s.sched.idle.strategy = "park";
  run_result shared = run_on<P>(s, 2);
  REQUIRE(shared.ok());
  CHECK(total(shared, &worker_stats::migrations) > 0);
  // dispatcher 1 owns only cold actors (about 5% of the messages) until it is fed
  CHECK(shared.per_worker[1].messages > shared.messages / 10);  // twice what it owns

  s.sched.policy = "distribution";
  run_result dist = run_on<P>(s, 2);
  REQUIRE(dist.ok());
  CHECK(total(dist, &worker_stats::migrations) == 0);
  CHECK(dist.per_worker[0].messages > dist.messages * 9 / 10);
}
TEST_CASE_TEMPLATE_APPLY(sharing_feeds, both_platforms);

// ---- adaptive ------------------------------------------------------------------------------

namespace {
scenario burst_scenario(std::uint32_t workers, std::uint32_t min_w, std::uint32_t max_w) {
  scenario s = base("burst", "adaptive");
  s.workload_params = {{"actors", std::int64_t(32)},      {"burst_msgs", std::int64_t(8000)},
                       {"cost_ns", std::int64_t(5000)},   {"idle_msgs", std::int64_t(6000)},
                       {"idle_cost_ns", std::int64_t(2000)}};
  s.sched.workers = workers;
  s.sched.min_workers = min_w;
  s.sched.max_workers = max_w;
  s.sched.overload_after = 200;
  s.sched.retire_after_ns = 500'000;
  s.sched.idle.strategy = "park";
  return s;
}
}  // namespace

TEST_CASE_TEMPLATE_DEFINE("adaptive starts threads during a burst and retires them after it" * doctest::test_suite("concurrency") *
                              doctest::timeout(60),
                          P, adaptive_grows) {
  scenario s = burst_scenario(1, 1, 3);
  // the light phase after the burst: 20000 x 2 us of work on one thread, about 40 ms; idle
  // threads retire after 0.5 ms, so every extra thread has long retired when the run ends
  s.workload_params["idle_msgs"] = std::int64_t(20000);
  run_result r = run_on<P>(s, 3);
  REQUIRE(r.ok());
  INFO("peak ", r.peak_workers, ", final ", r.final_workers, ", scale-up ", r.scale_up_s, " s");
  MESSAGE("adaptive on burst: peak ", r.peak_workers, ", final ", r.final_workers, ", scale-up ", r.scale_up_s,
          " s, timeline points ", r.thread_timeline.size(), ", wall ", r.wall_s, " s");
  CHECK(r.peak_workers >= 2);
  CHECK(r.peak_workers <= 3);
  CHECK(r.final_workers == 1);
  REQUIRE(r.thread_timeline.size() >= 3);  // start, at least one thread start, one retirement
  CHECK(r.thread_timeline.front().second == 1);
  CHECK(total(r, &worker_stats::migrations) > 0);
  for (std::size_t k = 1; k < r.thread_timeline.size(); ++k) CHECK(r.thread_timeline[k].first >= r.thread_timeline[k - 1].first);
  // scale_up_s is the time from the first thread start to the first time at the peak, as
  // the timeline shows them
  double first_start = -1, first_at_peak = -1;
  for (std::size_t k = 1; k < r.thread_timeline.size(); ++k)
    if (first_start < 0 && r.thread_timeline[k].second > r.thread_timeline[k - 1].second) first_start = r.thread_timeline[k].first;
  for (const auto& [t, n] : r.thread_timeline)
    if (first_at_peak < 0 && n == r.peak_workers) first_at_peak = t;
  REQUIRE(first_start >= 0);
  CHECK(r.scale_up_s == doctest::Approx(first_at_peak - first_start));
  CHECK(r.scale_up_s < r.wall_s);
}
TEST_CASE_TEMPLATE_APPLY(adaptive_grows, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("adaptive never runs fewer than min_workers nor more than max_workers threads" *
                              doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, adaptive_bounds) {
  run_result r = run_on<P>(burst_scenario(2, 2, 3), 3);
  REQUIRE(r.ok());
  for (auto& [t, n] : r.thread_timeline) {
    CHECK(n >= 2);
    CHECK(n <= 3);
  }
  CHECK(r.final_workers >= 2);
}
TEST_CASE_TEMPLATE_APPLY(adaptive_bounds, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("adaptive at max_workers rebalances to the least-loaded thread instead of starting one" *
                              doctest::test_suite("concurrency") * doctest::timeout(60),
                          P, adaptive_rebalances) {
  // skewed: every tenth actor is hot, and round robin over the two threads homes all of
  // them on thread 0, which is overloaded while thread 1 soon runs out of its cold ones.
  // At max_workers = 2 thread 0 must move actors to thread 1 instead of starting a third:
  // the count never moves, at least one actor migrates, and thread 1 ends up running more
  // than the 5% of the messages it owned. (burst spreads its load evenly over both threads,
  // so whether it rebalances at all depends on timing: it cannot show the move.)
  scenario s = base("skewed", "adaptive");
  s.workload_params = {{"actors", std::int64_t(200)}, {"messages", std::int64_t(20000)}, {"cost_ns", std::int64_t(2000)}};
  s.sched.workers = 2;
  s.sched.min_workers = 2;
  s.sched.max_workers = 2;
  s.sched.overload_after = 200;
  s.sched.idle.strategy = "park";
  run_result r = run_on<P>(s, 2);
  REQUIRE(r.ok());
  CHECK(r.peak_workers == 2);
  CHECK(r.final_workers == 2);
  CHECK(r.thread_timeline.size() == 1);
  REQUIRE(r.per_worker.size() == 2);
  CHECK(r.per_worker[0].migrations > 0);  // thread 0 moved hot actors away
  CHECK(r.per_worker[1].messages > r.messages / 10);
}
TEST_CASE_TEMPLATE_APPLY(adaptive_rebalances, both_platforms);

TEST_CASE_TEMPLATE_DEFINE("policies that never change their thread count report a flat timeline" * doctest::test_suite("concurrency") *
                              doctest::timeout(60),
                          P, flat_timeline) {
  for (const char* p : {"shared-queue", "distribution", "sharing", "stealing"}) {
    CAPTURE(p);
    scenario s = burst_scenario(2, 1, 0);
    s.sched.policy = p;
    s.workload_params["burst_msgs"] = std::int64_t(400);
    s.workload_params["idle_msgs"] = std::int64_t(100);
    run_result r = run_on<P>(s, 2);
    CHECK(r.ok());
    CHECK(r.peak_workers == 2);
    CHECK(r.final_workers == 2);
    CHECK(r.scale_up_s == 0);
  }
}
TEST_CASE_TEMPLATE_APPLY(flat_timeline, both_platforms);

TEST_SUITE_END();
