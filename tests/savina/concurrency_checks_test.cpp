// Savina's concurrency group: each benchmark's result check passes a correct result and fails a
// wrong one (a lost or extra message, a value no interleaving allows), so a run's verdict means what
// Savina's validation means.
#include <doctest/doctest.h>

#include <vector>

#include "models/workload/savina/concdict.hpp"
#include "models/workload/savina/concsll.hpp"
#include "models/workload/savina/bndbuffer.hpp"
#include "models/workload/savina/philosopher.hpp"
#include "models/workload/savina/barber.hpp"
#include "models/workload/savina/cigsmok.hpp"
#include "models/workload/savina/logmap.hpp"
#include "models/workload/savina/banking.hpp"

TEST_SUITE_BEGIN("unit");

using namespace twinsched;

TEST_CASE("concdict: a read or a final value that no interleaving allows fails the check") {
  namespace cd = savina_concdict;
  const std::uint64_t seed = 7, workers = 3, per = 200;
  const cd::values legal(seed, workers, per, 50);
  // the writes worker 0 sends, in order
  rng r = cd::worker_rng(seed, 0);
  std::vector<cd::request> w0;
  for (std::uint64_t i = 0; i < per; ++i)
    if (auto q = cd::next_request(r, 50); q.write) w0.push_back(q);
  REQUIRE(w0.size() > 10);
  const cd::request q = w0.front();
  CHECK(legal.read_ok(q.key, std::int32_t(q.key)));  // read before any write
  CHECK(legal.read_ok(q.key, q.value));              // read after worker 0's write
  CHECK_FALSE(legal.read_ok(q.key, q.value ^ 0x5a5a5a));
  CHECK_FALSE(legal.read_ok(q.key, std::int32_t(q.key) + 1));

  // the dictionary after every write ran in one legal order (workers one after the other)
  std::vector<std::int32_t> dict(cd::data_limit);
  for (std::uint32_t k = 0; k < cd::data_limit; ++k) dict[k] = std::int32_t(k);
  for (std::uint64_t w = 0; w < workers; ++w) {
    rng rw = cd::worker_rng(seed, w);
    for (std::uint64_t i = 0; i < per; ++i)
      if (auto x = cd::next_request(rw, 50); x.write) dict[x.key] = x.value;
  }
  CHECK(legal.final_ok(dict));
  auto lost = dict;
  lost[w0.back().key] = std::int32_t(w0.back().key);  // a write lost (unless another worker wrote the key back)
  bool rewritten = false;
  for (const auto& x : w0) rewritten = rewritten || x.key == w0.back().key;
  CHECK((legal.final_ok(lost) == false || rewritten));
  auto missing = dict;
  missing.pop_back();  // a key missing
  CHECK_FALSE(legal.final_ok(missing));
  auto wrong = dict;
  wrong[q.key] = q.value ^ 1;
  CHECK_FALSE(legal.final_ok(wrong));

  CHECK(cd::messages(20, 10000) == 400041);
  CHECK(cd::request_print(0, 1, q) != cd::request_print(0, 2, q));  // a duplicated request changes the checksum
}

TEST_CASE("concsll: the list stays sorted, and an answer or a final list no interleaving allows fails the check") {
  namespace cs = savina_concsll;
  cs::sorted_list l;
  for (std::int32_t v : {5, -3, 9, 5, 0, 12, -7}) l.add(v);
  CHECK(l.items() == std::vector<std::int32_t>{-7, -3, 0, 5, 5, 9, 12});
  std::uint64_t visits = 0;
  CHECK(l.contains(9, visits));
  CHECK(visits == 6);
  CHECK_FALSE(l.contains(4, visits));
  CHECK(visits == 7);
  CHECK(l.size() == 7);

  const std::uint64_t seed = 3, workers = 3, per = 300;
  const cs::answers legal(seed, workers, per, 30, 10);
  std::vector<std::int32_t> all;
  std::int32_t w1 = 0;
  bool have = false;
  for (std::uint64_t w = 0; w < workers; ++w) {
    rng rw = cs::worker_rng(seed, w);
    for (std::uint64_t i = 0; i < per; ++i)
      if (auto q = cs::next_request(rw, 30, 10); q.kind == cs::write) {
        all.push_back(q.value);
        if (w == 1 && !have) w1 = q.value, have = true;
      }
  }
  REQUIRE(have);
  CHECK(legal.writes() == all.size());
  CHECK(legal.contains_ok(w1, true, false));   // another worker's write seen
  CHECK(legal.contains_ok(w1, false, false));  // ... or not yet
  CHECK_FALSE(legal.contains_ok(w1, false, true));  // its own answered write not seen
  CHECK_FALSE(legal.contains_ok(w1 ^ 0x1234567, true, false));  // a value nobody wrote
  CHECK(legal.size_ok(all.size(), 3));
  CHECK_FALSE(legal.size_ok(2, 3));               // fewer than its own writes
  CHECK_FALSE(legal.size_ok(all.size() + 1, 0));  // more than all writes

  cs::sorted_list full;
  for (std::int32_t v : all) full.add(v);
  CHECK(legal.final_ok(full.items()));
  auto lost = full.items();
  lost.pop_back();
  CHECK_FALSE(legal.final_ok(lost));
  auto twice = full.items();
  twice.insert(twice.begin(), twice.front());
  CHECK_FALSE(legal.final_ok(twice));
  CHECK(cs::messages(20, 8000) == 320041);
}

TEST_CASE("bndbuffer: a lost or duplicated item, a short producer or an overflowing buffer fails the check") {
  namespace bb = savina_bndbuffer;
  const std::uint64_t p = 3, c = 2, items = 10, buffer = 5;
  CHECK(bb::result_ok(p, items, items, items, p * items, buffer, buffer, true));
  CHECK_FALSE(bb::result_ok(p, items, items - 1, items, p * items - 1, 3, buffer, true));  // a producer short
  CHECK_FALSE(bb::result_ok(p, items, items, items, p * items - 1, 3, buffer, true));      // an item not consumed
  CHECK_FALSE(bb::result_ok(p, items, items, items, p * items, buffer + 1, buffer, true)); // the buffer overflowed
  CHECK_FALSE(bb::result_ok(p, items, items, items, p * items, 3, buffer, false));         // consumers never ended
  const std::uint64_t ref = bb::reference_checksum(p, c, items, 1);
  const double v0 = bb::process_item(0, 1);
  CHECK(v0 == bb::process_item(0, 1));  // the same item on every producer and backend
  CHECK(ref - bb::item_print(1, 0, v0) != ref);                                  // an item lost on the way
  CHECK(ref + bb::item_print(1, 0, v0) - bb::item_print(1, 1, v0) != ref);       // one twice, one lost
  CHECK(ref != bb::reference_checksum(p, c, items, 2));                       // other work per item
  CHECK(bb::messages(40, 40, 1000) == 160120);
}

TEST_CASE("philosopher: a missed meal, a lost denial, a fork held twice or kept fails the check") {
  namespace ph = savina_philosopher;
  ph::outcome good{{4, 4, 4}, 7, 7, 0, 0, 3};
  CHECK(ph::result_ok(3, 4, good));
  auto o = good;
  o.eaten[1] = 3;  // a meal missed
  CHECK_FALSE(ph::result_ok(3, 4, o));
  o = good;
  o.denials_received = 6;  // a Denied lost
  CHECK_FALSE(ph::result_ok(3, 4, o));
  o = good;
  o.bad_releases = 1;  // a fork released by one who did not hold it: granted twice
  CHECK_FALSE(ph::result_ok(3, 4, o));
  o = good;
  o.forks_held = 2;  // a Done lost
  CHECK_FALSE(ph::result_ok(3, 4, o));
  o = good;
  o.exited = 2;  // an Exit lost
  CHECK_FALSE(ph::result_ok(3, 4, o));
  // the count follows the denials the arbitrator recorded: a retry's two messages each
  CHECK(ph::messages(20, 10000, 0) == 800020);
  CHECK(ph::messages(20, 10000, 5) == 800030);
  const std::uint64_t ref = ph::reference_checksum(3, 4);
  CHECK(ref - ph::print(ph::eat, 2, 3) != ref);                          // an Eat lost
  CHECK(ref + ph::print(ph::done, 0, 0) - ph::print(ph::done, 0, 1) != ref);  // a Done twice, one lost
}

TEST_CASE("barber: a customer served twice or never, a lost turn-away or an overfull room fails the check") {
  namespace sb = savina_barber;
  const sb::outcome good{10, 10, 10, 10, 4, 4, 3, true};
  CHECK(sb::result_ok(10, 3, good));
  auto o = good;
  o.served_once = 9;  // a customer never served, or served twice
  CHECK_FALSE(sb::result_ok(10, 3, o));
  o = good;
  o.haircuts = 11;  // a haircut too many
  CHECK_FALSE(sb::result_ok(10, 3, o));
  o = good;
  o.returned = 3;  // a turned-away customer never came back
  CHECK_FALSE(sb::result_ok(10, 3, o));
  o = good;
  o.most_waiting = 4;  // more waiting than chairs
  CHECK_FALSE(sb::result_ok(10, 3, o));
  o = good;
  o.factory_done = 9;  // a Done lost
  CHECK_FALSE(sb::result_ok(10, 3, o));
  o = good;
  o.ended = false;  // an Exit lost
  CHECK_FALSE(sb::result_ok(10, 3, o));
  // the count follows what the room decided: three messages per turn-away, one per nap
  CHECK(sb::messages(5000, 0, 1) == 35004);
  CHECK(sb::messages(5000, 2, 7) == 35016);
  // the haircuts' lengths come from the seed alone
  rng a = sb::barber_rng(5), b = sb::barber_rng(5);
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = sb::wait_iterations(a, 1000);
    CHECK(x == sb::wait_iterations(b, 1000));
    CHECK((x >= 10 && x < 1010));
  }
  const std::uint64_t ref = sb::reference_checksum(10, 1000, 5);
  CHECK(ref - sb::print(sb::cut_done, 4) != ref);  // a Done lost
  CHECK(ref != sb::reference_checksum(10, 1000, 6));  // other haircut lengths
}

TEST_CASE("cigsmok: a round lost, a smoker woken for another's round or a missing Exit fails the check") {
  namespace cs = savina_cigsmok;
  const std::uint64_t rounds = 50, seed = 11;
  const std::uint32_t smokers = 6;
  const auto expected = cs::smoked(rounds, smokers, seed);
  std::uint64_t total = 0;
  for (std::uint64_t n : expected) total += n;
  CHECK(total == rounds);
  CHECK(cs::result_ok(rounds, expected, rounds, expected, smokers));
  CHECK_FALSE(cs::result_ok(rounds, expected, rounds - 1, expected, smokers));  // the arbiter stopped early
  auto moved = expected;
  ++moved[0], --moved[1];  // a round smoked by the wrong smoker
  if (expected[1] > 0) CHECK_FALSE(cs::result_ok(rounds, expected, rounds, moved, smokers));
  CHECK_FALSE(cs::result_ok(rounds, expected, rounds, expected, smokers - 1));  // an Exit lost
  CHECK(cs::messages(1000, 200) == 2201);
  const std::uint64_t ref = cs::reference_checksum(rounds, smokers, seed);
  CHECK(ref - cs::print(cs::started_smoking, 7) != ref);  // an answer lost
  CHECK(ref != cs::reference_checksum(rounds, smokers, seed + 1));  // other choices
}

TEST_CASE("logmap: a step lost or taken twice, or a series reported twice, fails the check") {
  namespace lm = savina_logmap;
  const auto good = lm::final_terms(100, 4, 3.46, 0.0025);
  const std::vector<std::uint64_t> once(4, 1);
  CHECK(lm::result_ok(good, good, once));
  CHECK_FALSE(lm::result_ok(good, lm::final_terms(99, 4, 3.46, 0.0025), once));   // a step lost
  CHECK_FALSE(lm::result_ok(good, lm::final_terms(101, 4, 3.46, 0.0025), once));  // a step twice
  auto twice = once;
  twice[2] = 2;
  CHECK_FALSE(lm::result_ok(good, good, twice));  // a series' result reported twice
  CHECK_FALSE(lm::result_ok(good, {good[0], good[1], good[2]}, once));  // a series missing
  CHECK(lm::messages(25000, 10) == 750041);
  const std::uint64_t ref = lm::reference_checksum(100, 4, 3.46, 0.0025);
  CHECK(ref - lm::print(lm::next_term, 1) != ref);  // a NextTerm lost
}

TEST_CASE("banking: a transfer lost, half done or done twice fails the check") {
  namespace bk = savina_banking;
  const std::uint32_t accounts = 12;
  const std::uint64_t n = 200, seed = 4;
  rng r = bk::teller_rng(seed);
  for (int i = 0; i < 1000; ++i) {
    const bk::transfer t = bk::next_transfer(r, accounts);
    CHECK(t.src < t.dest);  // no cycle of waiting accounts
    CHECK(t.dest < accounts);
  }
  const auto good = bk::closing(accounts, n, seed);
  CHECK(bk::result_ok(n, n, good, good));
  CHECK_FALSE(bk::result_ok(n, n - 1, good, good));  // a transfer never answered
  rng r2 = bk::teller_rng(seed);
  const bk::transfer t = bk::next_transfer(r2, accounts);
  auto half = good;
  half[t.dest] -= std::int64_t(t.amount);  // debited, never credited: money lost
  if (t.amount) CHECK_FALSE(bk::result_ok(n, n, good, half));
  auto moved = good;
  moved[t.src] += 5, moved[t.dest] -= 5;  // conserved, but to the wrong account
  CHECK_FALSE(bk::result_ok(n, n, good, moved));
  CHECK(bk::result_ok(n, n, bk::closing(accounts, n + 1, seed), bk::closing(accounts, n + 1, seed)));
  CHECK_FALSE(bk::result_ok(n, n, good, bk::closing(accounts, n + 1, seed)));  // one transfer too many
  CHECK(bk::messages(1000, 50000) == 201001);
}
