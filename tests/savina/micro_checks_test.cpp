// Savina's micro group: each benchmark's result check passes a correct result and fails a wrong one
// (a lost or extra message, a wrong count), so a run's verdict means what Savina's validation means.
//
// Two kinds of case: the checks' pure functions (the benchmark's .hpp) fed wrong results, and each
// workload run by a sequential harness (below), correct under several interleavings and wrong
// when the harness loses or duplicates one message.
#include <doctest/doctest.h>

#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/actor.hpp"
#include "models/rng.hpp"
#include "models/workload/savina/big.hpp"
#include "models/workload/savina/chameneos.hpp"
#include "models/workload/savina/count.hpp"
#include "models/workload/savina/fjcreate.hpp"
#include "models/workload/savina/fjthrput.hpp"
#include "models/workload/savina/pingpong.hpp"
#include "models/workload/savina/threadring.hpp"
#include "models/workload/workload.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

namespace {

/// Which send the harness tampers with (counted from 0, the injected ones included).
struct fault {
  std::uint64_t drop = ~0ull, duplicate = ~0ull;
};

/// Runs a workload on this thread, one message at a time: each step delivers the oldest message
/// of an actor with mail, the actor picked at random from `seed`, so each seed is another
/// interleaving that keeps every mailbox in order, as the runtime does.
class sequential_run final : public context {
 public:
  sequential_run(std::uint64_t seed, fault f) : pick_(seed), fault_(f) {}

  actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options&) override {
    cells_.push_back(std::make_unique<cell>(std::uint32_t(cells_.size()), std::move(b)));
    return actor_ref(cells_.back().get());
  }
  actor_ref spawn_made(const behavior_maker& m, const spawn_options& o) override {
    return spawn(std::unique_ptr<behavior>(m.make(nullptr, m.args)), o);
  }
  void send(actor_ref to, const message& m) override {
    const std::uint64_t i = sends_++;
    if (i == fault_.drop || !to) return;  // a lost message, or one to nobody (its successor's was lost)
    message out = m;
    out.sender = current_;
    auto& c = *static_cast<cell*>(to.get());
    for (int k = i == fault_.duplicate ? 2 : 1; k > 0; --k) {
      if (c.box.empty()) ready_.push_back(&c);
      c.box.push_back(out);
    }
  }
  void become(std::unique_ptr<behavior> b) override { next_ = std::move(b); }
  void stop() override { current_->stopped = true; }
  void burn_ns(std::uint64_t) override {}
  void did_work_ns(std::uint64_t) override {}
  actor_ref self() const override { return actor_ref(current_); }
  std::uint64_t now_ns() const override { return 0; }  // no clock: no workload here reads one

  /// Delivers messages until none is left (or `limit`, a run that would not end); returns how
  /// many it delivered, dead letters included, as the runtime counts them.
  std::uint64_t run(std::uint64_t limit) {
    std::uint64_t delivered = 0;
    while (!ready_.empty() && delivered < limit) {
      const std::size_t r = pick_.below(std::uint32_t(ready_.size()));
      cell& c = *ready_[r];
      const message m = c.box.front();
      c.box.pop_front();
      if (c.box.empty()) {
        ready_[r] = ready_.back();
        ready_.pop_back();
      }
      ++delivered;
      if (c.stopped) continue;
      current_ = &c;
      try {
        c.b->receive(*this, m);
      } catch (const std::exception&) {  // the runtime reports a behavior that throws, and fails the run
        threw_ = true;
        c.stopped = true;
      }
      if (next_) c.b = std::move(next_);
      current_ = nullptr;
    }
    return delivered;
  }
  std::uint64_t sends() const { return sends_; }
  bool threw() const { return threw_; }

 private:
  struct cell final : actor {
    cell(std::uint32_t id, std::unique_ptr<behavior> beh) : actor(id), b(std::move(beh)) {}
    std::unique_ptr<behavior> b;
    std::deque<message> box;
    bool stopped = false;
  };
  std::vector<std::unique_ptr<cell>> cells_;
  std::vector<cell*> ready_;
  cell* current_ = nullptr;
  std::unique_ptr<behavior> next_;
  rng pick_;
  fault fault_;
  std::uint64_t sends_ = 0;
  bool threw_ = false;
};

struct outcome {
  bool verdict;          ///< what the run's verdict checks: checksum, message count, result
  std::uint64_t sends;   ///< messages sent, the injected ones included
};

TEST_CASE("burns: only the Savina benchmarks that busy-wait say so, and a stock workload that burns does") {
  const auto burns = [](const std::string& name, const std::map<std::string, param_value>& params = {}) {
    const workload_info* info = find_workload(name);
    REQUIRE(info != nullptr);
    return info->make(with_defaults(*info, params), 1)->burns();
  };
  for (const char* name : {"savina-pingpong", "savina-count", "savina-trapezoid", "savina-quicksort", "savina-fib"})
    CHECK_FALSE(burns(name));
  CHECK(burns("savina-barber"));
  CHECK(burns("savina-cigsmok"));
  CHECK_FALSE(burns("savina-uct"));  // Savina's computation is dead code: comp_ns = 0
  CHECK(burns("savina-uct", {{"comp_ns", 1.0}}));
  CHECK(burns("forward"));
}

/// Builds workload `name` with `params` (the rest at their defaults) and runs it sequentially.
outcome run(const std::string& name, const std::map<std::string, param_value>& params, std::uint64_t seed,
            fault f = {}) {
  const workload_info* info = find_workload(name);
  REQUIRE(info != nullptr);
  auto w = info->make(with_defaults(*info, params), seed);
  sequential_run r(seed, f);
  w->start(r);
  const std::uint64_t delivered = r.run(4 * w->expected_messages() + 100);
  return {!r.threw() && w->checksum() == w->reference_checksum() && delivered == w->expected_messages() &&
              w->result_ok(),
          r.sends()};
}

/// The workload passes under several interleavings, and fails when one message, early, midway or
/// last, is lost or delivered twice.
void check_verdict(const std::string& name, const std::map<std::string, param_value>& params) {
  std::uint64_t sends = 0;
  for (std::uint64_t seed : {1, 2, 3}) {
    const outcome o = run(name, params, seed);
    CHECK_MESSAGE(o.verdict, name << " failed a correct run, seed " << seed);
    sends = o.sends;
  }
  REQUIRE(sends > 2);
  for (std::uint64_t at : {std::uint64_t(0), sends / 3, sends / 2, sends - 1}) {
    CHECK_MESSAGE(!run(name, params, 1, {.drop = at}).verdict, name << " passed with message " << at << " lost");
    CHECK_MESSAGE(!run(name, params, 1, {.duplicate = at}).verdict, name << " passed with message " << at << " twice");
  }
}

}  // namespace

TEST_CASE("pingpong: a lost, extra or unanswered ping fails the check") {
  namespace pp = savina_pingpong;
  const std::uint64_t n = 50;
  CHECK(pp::result_ok(n, n, n, 0, true));
  CHECK_FALSE(pp::result_ok(n, n - 1, n, 0, true));  // a ping that pong never answered
  CHECK_FALSE(pp::result_ok(n, n, n - 1, 0, true));  // a pong that ping never received
  CHECK_FALSE(pp::result_ok(n, n, n, 1, true));      // a ping never sent
  CHECK_FALSE(pp::result_ok(n, n, n, 0, false));     // the stop lost
  CHECK(pp::messages(n) == 3 * n + 1);
  check_verdict("savina-pingpong", {{"pings", std::int64_t(n)}});
}

TEST_CASE("count: a lost or extra increment, or no answer, fails the check") {
  namespace c = savina_count;
  const std::uint64_t n = 100;
  CHECK(c::result_ok(n, true, n));
  CHECK_FALSE(c::result_ok(n, true, n - 1));  // an increment lost (or counted after the retrieve)
  CHECK_FALSE(c::result_ok(n, true, n + 1));  // one counted twice
  CHECK_FALSE(c::result_ok(n, false, n));     // the result never arrived
  CHECK(c::messages(n) == n + 3);
  check_verdict("savina-count", {{"messages", std::int64_t(n)}});
}

TEST_CASE("fjthrput: an actor with a message lost or extra, or not stopped, fails the check") {
  namespace f = savina_fjthrput;
  const std::uint64_t n = 20;
  CHECK(f::compute(f::theta));
  CHECK(f::result_ok(n, {n, n, n}, 0, 3));
  CHECK_FALSE(f::result_ok(n, {n, n - 1, n}, 0, 3));
  CHECK_FALSE(f::result_ok(n, {n, n + 1, n}, 0, 3));
  CHECK_FALSE(f::result_ok(n, {n, n, n}, 1, 3));  // a computation not positive
  CHECK_FALSE(f::result_ok(n, {n, n, n}, 0, 2));
  CHECK(f::messages(3, n) == 3 * n + 1);
  check_verdict("savina-fjthrput", {{"actors", std::int64_t(3)}, {"messages", std::int64_t(n)}});
}

TEST_CASE("fjcreate: an actor not created, not run or run twice fails the check") {
  namespace f = savina_fjcreate;
  const std::uint64_t n = 30;
  CHECK(f::result_ok(n, n, n, 0));
  CHECK_FALSE(f::result_ok(n, n - 1, n - 1, 0));  // one never created
  CHECK_FALSE(f::result_ok(n, n, n - 1, 0));      // one never ran
  CHECK_FALSE(f::result_ok(n, n, n, 1));          // a computation not positive
  CHECK(f::messages(n) == n + 1);
  check_verdict("savina-fjcreate", {{"actors", std::int64_t(n)}});
}

TEST_CASE("threadring: a hop lost or taken twice, or an actor not stopped, fails the check") {
  namespace t = savina_threadring;
  const std::uint64_t n = 7, r = 40;
  CHECK(t::result_ok(n, r, r + 1, n));
  CHECK_FALSE(t::result_ok(n, r, r, n));
  CHECK_FALSE(t::result_ok(n, r, r + 2, n));
  CHECK_FALSE(t::result_ok(n, r, r + 1, n - 1));
  CHECK(t::messages(n, r) == 2 * n + r + 2);
  check_verdict("savina-threadring", {{"actors", std::int64_t(n)}, {"hops", std::int64_t(r)}});
  check_verdict("savina-threadring", {{"actors", std::int64_t(1)}, {"hops", std::int64_t(5)}});
}

TEST_CASE("chameneos: the colour rule, and a meeting lost or extra, or a colour wrong, fails the check") {
  namespace c = savina_chameneos;
  CHECK(c::complement(c::red, c::yellow) == c::blue);
  CHECK(c::complement(c::blue, c::red) == c::yellow);
  CHECK(c::complement(c::yellow, c::blue) == c::red);
  CHECK(c::complement(c::blue, c::blue) == c::blue);
  CHECK(c::complement(c::faded, c::red) == c::faded);
  // three creatures (red, yellow, blue), two meetings: red+yellow both blue, then blue+blue
  c::outcome right{3, 4, {2, 1, 1}, {c::blue, c::blue, c::blue}};
  CHECK(c::result_ok(3, 2, right));
  auto wrong = right;
  wrong.meetings_reported = 3;  // the mall's sum short
  CHECK_FALSE(c::result_ok(3, 2, wrong));
  wrong = right;
  wrong.meetings = {2, 1, 0};  // a creature's own count short
  CHECK_FALSE(c::result_ok(3, 2, wrong));
  wrong = right;
  wrong.faded_reported = 2;  // a creature never reported
  CHECK_FALSE(c::result_ok(3, 2, wrong));
  wrong = right;
  wrong.last = {c::blue, c::red, c::blue};  // one took the wrong colour
  CHECK_FALSE(c::result_ok(3, 2, wrong));
  wrong = right;
  wrong.last = {c::blue, c::faded, c::blue};  // one never reported its colour
  CHECK_FALSE(c::result_ok(3, 2, wrong));
  CHECK(c::messages(3, 2) == 17);
  check_verdict("savina-chameneos", {{"chameneos", std::int64_t(7)}, {"meetings", std::int64_t(60)}});
  check_verdict("savina-chameneos", {{"chameneos", std::int64_t(2)}, {"meetings", std::int64_t(5)}});
}

TEST_CASE("big: a ping unanswered or answered twice, a pong from the wrong actor or a missing exit fails the check") {
  namespace b = savina_big;
  const std::uint64_t w = 3, n = 10;
  CHECK(b::result_ok(w, n, {n + 1, n + 1, n + 1}, 0, w, w));
  CHECK_FALSE(b::result_ok(w, n, {n + 1, n, n + 1}, 0, w, w));      // a ping unanswered
  CHECK_FALSE(b::result_ok(w, n, {n + 1, n + 2, n + 1}, 0, w, w));  // one answered twice
  CHECK_FALSE(b::result_ok(w, n, {n + 1, n + 1, n + 1}, 1, w, w));  // a pong from another actor
  CHECK_FALSE(b::result_ok(w, n, {n + 1, n + 1, n + 1}, 0, w - 1, w));
  CHECK_FALSE(b::result_ok(w, n, {n + 1, n + 1, n + 1}, 0, w, w - 1));
  CHECK(b::reference_checksum(w, n, 1) != b::reference_checksum(w, n, 2));  // the targets follow the seed
  CHECK(b::messages(w, n) == 2 * w * n + 4 * w + 1);
  check_verdict("savina-big", {{"actors", std::int64_t(5)}, {"pings", std::int64_t(12)}});
  check_verdict("savina-big", {{"actors", std::int64_t(1)}, {"pings", std::int64_t(4)}});
}
