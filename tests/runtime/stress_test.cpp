// Stress tests of the lock-free protocols on real threads with the memory orders the release build really uses.
//
// Why these exist: the simulator is sequentially consistent and the ThreadSanitizer build
// makes every platform atomic seq_cst (runtime/tsan_atomic.hpp), so neither can catch an
// acquire that should have been seq_cst, or a release that is missing. Only real hardware
// running the real orders can, and only by chance: these tests give it many chances. Each
// protocol runs many short rounds (the edge cases, an empty mailbox, a one-element deque,
// a sleeper mid-announce, an owner going idle, happen at round boundaries and under
// contention), with more threads than a 2-core machine has cores so that preemption lands
// inside the windows the essays argue about. Plain (non-atomic) payloads are written
// before each hand-over and checked after it, so a missing release/acquire pair shows up
// as a wrong value. How much a machine can show depends on its memory model: x86 (TSO)
// never reorders loads with loads or stores with stores, so there a missing acquire or
// release shows only through the compiler's reordering; but it does reorder a store with
// a later load, so a missing seq_cst fence shows in hardware (weakening the Chase-Lev
// pop's fence to acq_rel makes the deque case below fail in every run on a 2-core x86
// machine). On weakly ordered machines (ARM, POWER) every order can show.
//
// Failures inside worker threads are counted in atomics and checked on the test's thread
// (a doctest REQUIRE thrown on another thread would end the process). A lost wake-up or a
// stranded message would hang: the parking case bounds its wait and reports it, and every
// case has a deadline (tests/support/doctest_main.cpp) that prints the state and fails.
// Built as its own executable, `test_runtime_stress` (ctest label `stress`). The
// ThreadSanitizer stage does not build it (its atomics are all seq_cst); the ASan+UBSan
// stage runs it with the rest of the suite.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "models/actor.hpp"
#include "models/envelope_pool.hpp"
#include "models/mailbox.hpp"
#include "models/parking.hpp"
#include "models/policy/chase_lev_deque.hpp"
#include "models/rng.hpp"
#include "runtime/thread_platform.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using P = thread_platform;
using node = envelope<P>;

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) { return std::chrono::duration<double>(clock_type::now() - t0).count(); }

/// Starts `n` threads running `f(i)` and joins them.
template <class F>
void run_threads(unsigned n, F&& f) {
  std::vector<std::thread> ts;
  for (unsigned i = 0; i < n; ++i) ts.emplace_back([&f, i] { f(i); });
  for (auto& t : ts) t.join();
}

/// A message's payload as a pure function of (producer, sequence number): the consumer
/// recomputes it, so a torn or stale envelope is caught.
std::uint64_t payload(std::uint64_t producer, std::uint64_t seq) { return splitmix64((producer << 40) ^ seq); }

}  // namespace

// ---- the mailbox: many producers, one consumer ---------------------------------------------

TEST_CASE("mailbox under stress: many producers, one consumer, recycled envelopes: each message once, in each producer's order" *
          doctest::test_suite("stress") * doctest::timeout(60)) {
  // Every round: a fresh mailbox owned by the consumer (claimed with a dummy), producers
  // sending concurrently, the consumer popping everything and then going idle. Envelopes
  // come from per-thread pools balanced through a shared depot, as in a run, so an
  // envelope handed back as `spent` while the mailbox still links it would be reused by a
  // producer and show up as a duplicate, a gap or a wrong payload.
  constexpr unsigned producers = 4;
  constexpr std::uint64_t per_round = 20'000;
  constexpr unsigned rounds = 200;
  const auto t0 = clock_type::now();
  envelope_depot<P> depot;
  std::vector<std::unique_ptr<envelope_pool<P>>> pools;
  for (unsigned i = 0; i <= producers; ++i) pools.push_back(std::make_unique<envelope_pool<P>>(depot));
  envelope_pool<P>& consumer_pool = *pools[producers];
  std::uint64_t delivered = 0, out_of_order = 0, bad_payload = 0, busy = 0, spent_back = 0;
  for (unsigned round = 0; round < rounds; ++round) {
    mailbox<P> box;
    REQUIRE(box.try_claim(consumer_pool.get()));
    std::vector<std::thread> ts;
    for (unsigned p = 0; p < producers; ++p)
      ts.emplace_back([&, p] {
        for (std::uint64_t i = 0; i < per_round; ++i) {
          node* e = pools[p]->get();
          e->msg = message{p, i, 0, 0, nullptr};
          e->id = payload(p, i);  // plain writes: published by the push's exchange and link
          box.push(e);
        }
      });
    std::vector<std::uint64_t> next(producers, 0);
    std::uint64_t got = 0;
    while (got < producers * per_round) {
      node *e = nullptr, *spent = nullptr;
      auto st = box.pop(e, spent);
      if (st != mailbox<P>::pop_status::item) {
        busy += st == mailbox<P>::pop_status::busy;
        std::this_thread::yield();
        continue;
      }
      const std::uint64_t p = e->msg.a, i = e->msg.b;
      if (p >= producers || i != next[p]) ++out_of_order;
      else ++next[p];
      if (e->id != payload(p, i)) ++bad_payload;
      if (spent) consumer_pool.put(spent), ++spent_back;
      ++got;
    }
    for (auto& t : ts) t.join();
    node *e = nullptr, *spent = nullptr;
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
    node* last = nullptr;
    REQUIRE(box.try_idle(last));  // drained and nobody pushing: it goes idle
    consumer_pool.put(last), ++spent_back;
    delivered += got;
  }
  CHECK(delivered == std::uint64_t(rounds) * producers * per_round);
  CHECK(out_of_order == 0);
  CHECK(bad_payload == 0);
  // as many envelopes came back as were used: one per message and each round's dummy
  CHECK(spent_back == delivered + rounds);
  MESSAGE("mailbox stress: ", delivered, " messages in ", rounds, " rounds, consumer saw a producer mid-push ", busy,
          " times, ", seconds_since(t0), " s");
}

// ---- the Chase-Lev deque: the owner against several thieves --------------------------------

TEST_CASE("Chase-Lev deque under stress: owner push/pop/steal against thieves, from capacity 2: every element taken once, its contents visible" *
          doctest::test_suite("stress") * doctest::timeout(60)) {
  // Every round: a fresh deque of capacity 2, so it grows while thieves read the old
  // rings. The owner pushes bursts of 1-64 items, then takes a random part back, by pop
  // (LIFO, racing thieves for the last element) or by steal (FIFO mode), and one time in
  // four pops until the deque is empty, where the last-element race is. Between bursts it
  // spins a little, as a worker runs a turn, which gives the thieves their window. Each item's value
  // is a plain field the owner writes just before pushing it: whoever takes it must see it
  // (push's release fence pairs with steal's acquire of bottom).
  struct item {
    std::uint64_t value = 0;   // plain: written by the owner before push
    std::atomic<int> taken{0};  // how many parties took it
  };
  using deque_t = chase_lev_deque<P, item*>;
  constexpr unsigned thieves = 3;
  constexpr std::size_t per_round = 200'000;
  constexpr unsigned rounds = 20;
  const auto t0 = clock_type::now();
  std::atomic<std::uint64_t> twice{0}, stale{0}, by_thieves{0}, lost_races{0};
  std::uint64_t by_owner = 0;
  std::mt19937_64 rng(42);
  P plat;
  for (unsigned round = 0; round < rounds; ++round) {
    auto items = std::make_unique<item[]>(per_round);
    deque_t d(2);
    std::atomic<std::size_t> taken_total{0};
    std::atomic<bool> stop{false};
    std::atomic<unsigned> ready{0};
    auto take = [&](item* x) {
      if (x->taken.fetch_add(1, std::memory_order_relaxed) != 0) twice.fetch_add(1, std::memory_order_relaxed);
      if (x->value != payload(round, std::size_t(x - items.get()))) stale.fetch_add(1, std::memory_order_relaxed);
      taken_total.fetch_add(1, std::memory_order_relaxed);
    };
    std::vector<std::thread> ts;
    for (unsigned t = 0; t < thieves; ++t)
      ts.emplace_back([&] {
        std::uint64_t mine = 0, lost = 0;
        ready.fetch_add(1, std::memory_order_relaxed);
        while (!stop.load(std::memory_order_acquire)) {
          item* x = nullptr;
          auto st = d.steal(x);
          if (st == deque_t::steal_status::taken) take(x), ++mine;
          else if (st == deque_t::steal_status::lost) ++lost;
          else std::this_thread::yield();
        }
        by_thieves.fetch_add(mine, std::memory_order_relaxed);
        lost_races.fetch_add(lost, std::memory_order_relaxed);
      });
    while (ready.load(std::memory_order_relaxed) < thieves) std::this_thread::yield();  // every thief is stealing
    std::size_t pushed = 0;
    while (pushed < per_round) {
      std::size_t burst = std::min<std::size_t>(1 + rng() % 64, per_round - pushed);
      for (std::size_t k = 0; k < burst; ++k, ++pushed) {
        items[pushed].value = payload(round, pushed);
        d.push(&items[pushed]);
      }
      for (int k = 0; k < 256; ++k) plat.spin_pause();  // a turn's worth of work: thieves get a window
      const bool drain = rng() % 4 == 0;
      for (std::size_t k = drain ? per_round : rng() % (burst + 1); k > 0; --k) {
        item* x = nullptr;
        if (!drain && rng() % 4 == 0) {  // the owner takes the oldest, as a FIFO owner does
          if (d.steal(x) != deque_t::steal_status::taken) x = nullptr;
        } else {
          x = d.pop();
          if (!x && drain) break;  // empty (or the last one went to a thief)
        }
        if (x) take(x), ++by_owner;
      }
    }
    while (item* x = d.pop()) take(x), ++by_owner;
    // thieves finishing their last take; an element the deque lost would never be taken
    for (const auto since = clock_type::now(); taken_total.load(std::memory_order_relaxed) < per_round;) {
      if (seconds_since(since) > 5.0) break;
      std::this_thread::yield();
    }
    stop.store(true, std::memory_order_release);
    for (auto& t : ts) t.join();
    CHECK_MESSAGE(taken_total.load() == per_round, "round ", round, ": elements pushed but never taken");
    item* x = nullptr;
    CHECK(d.steal(x) == deque_t::steal_status::empty);
    CHECK(d.pop() == nullptr);
  }
  CHECK(twice.load() == 0);
  CHECK(stale.load() == 0);
  CHECK(by_owner + by_thieves.load() == std::uint64_t(rounds) * per_round);
  CHECK(by_thieves.load() > 0);  // the thieves did take part
  MESSAGE("deque stress: ", rounds * per_round, " items in ", rounds, " rounds, ", by_thieves.load(), " stolen, ",
          lost_races.load(), " steals lost a race, ", seconds_since(t0), " s");
}

// ---- parking: sleepers against wakers ------------------------------------------------------

TEST_CASE("parking under stress: three sleepers and two wakers, announce/re-check/park vs wake_one, no lost wake-up" *
          doctest::test_suite("stress") * doctest::timeout(60)) {
  // Each producer publishes a burst of 1-3 items, one at a time, by a plain release store
  // of its own count (as a deque push publishes: a store, not a read-modify-write) and a
  // wake_one each, the waker's side of parking.hpp; so only the waker's seq_cst fence
  // orders the publication before its read of the sleeper count. Then it waits until its
  // items are consumed. Consumers claim items with a CAS; finding none they announce,
  // re-check and park without a timeout, exactly as a worker with the `park` idle strategy
  // does. So consumers go to sleep just as the next burst is published, again and again,
  // and nothing else wakes them: a lost wake-up leaves a producer's items unconsumed, which
  // it notices (seconds without progress) and reports.
  constexpr unsigned consumers = 3, producers = 2;
  constexpr std::uint64_t bursts = 40'000;  // per producer
  const auto t0 = clock_type::now();
  parking<P> park(consumers);
  struct alignas(64) lane {
    std::atomic<std::uint64_t> published{0};  // written by its producer only
    std::atomic<std::uint64_t> claimed{0};    // items of this lane consumers took
  };
  lane lanes[producers];
  std::atomic<std::uint64_t> consumed{0}, parks{0}, lost_wakeups{0};
  std::atomic<bool> done{false};
  auto left = [&] {
    std::uint64_t n = 0;
    for (auto& l : lanes) n += l.published.load(std::memory_order_acquire) - l.claimed.load(std::memory_order_acquire);
    return n;
  };
  auto try_take = [&](unsigned start) {
    for (unsigned k = 0; k < producers; ++k) {
      lane& l = lanes[(start + k) % producers];
      std::uint64_t c = l.claimed.load(std::memory_order_acquire);
      while (c < l.published.load(std::memory_order_acquire))  // pairs with the producer's release store
        if (l.claimed.compare_exchange_weak(c, c + 1, std::memory_order_acq_rel, std::memory_order_acquire)) return true;
    }
    return false;
  };
  std::vector<std::thread> ts;
  for (unsigned c = 0; c < consumers; ++c)
    ts.emplace_back([&, c] {
      while (!done.load(std::memory_order_acquire)) {
        if (try_take(c)) {
          consumed.fetch_add(1, std::memory_order_relaxed);
          continue;
        }
        park.announce(c);                                          // sleeper step 1
        if (left() > 0 || done.load(std::memory_order_acquire)) {  // step 2: the re-check
          park.cancel(c);
          continue;
        }
        parks.fetch_add(1, std::memory_order_relaxed);
        park.park(c);  // step 4
        park.cancel(c);
      }
    });
  run_threads(producers, [&](unsigned p) {
    lane& l = lanes[p];
    std::uint64_t n = 0;
    for (std::uint64_t b = 0; b < bursts; ++b) {
      for (std::uint64_t k = 0; k <= b % 3; ++k) {
        l.published.store(++n, std::memory_order_release);  // waker step 1: the work is visible
        park.wake_one(int(p));                              // steps 2-3
      }
      const auto since = clock_type::now();
      for (unsigned spins = 0; l.claimed.load(std::memory_order_acquire) < n; ++spins) {
        if (spins < 64) continue;
        std::this_thread::yield();
        if (spins % 1024 == 0 && seconds_since(since) > 5.0) {  // far beyond any scheduling delay
          lost_wakeups.fetch_add(1, std::memory_order_relaxed);
          return;
        }
      }
    }
  });
  CHECK_MESSAGE(lost_wakeups.load() == 0, "every consumer parked with ", left(), " items left: a lost wake-up");
  done.store(true, std::memory_order_release);
  park.wake_all();  // the scheduler's finish(): every sleeper, and every one about to park
  for (auto& t : ts) t.join();
  CHECK(consumed.load() == lanes[0].published.load() + lanes[1].published.load());
  CHECK(consumed.load() == producers * (bursts / 3 * 6 + (bursts % 3 >= 1 ? 1 : 0) + (bursts % 3 >= 2 ? 2 : 0)));
  CHECK(left() == 0);
  MESSAGE("parking stress: ", consumed.load(), " items in ", producers * bursts, " bursts, consumers parked ", parks.load(),
          " times, ", seconds_since(t0), " s");
}

TEST_CASE("parker under stress: a token passed back and forth between two threads is never lost, and what was written before unpark is seen after park" *
          doctest::test_suite("stress") * doctest::timeout(60)) {
  // Ping-pong over two parkers: each side writes a plain value, unparks the other, parks.
  // runtime/thread_platform.hpp's parker hands the token over with an exchange on its
  // fast path (release, paired with park's acquire) and a mutex + condition variable on
  // its slow path; a token lost on either path hangs a side (the deadline reports it), a
  // missing release/acquire shows as a stale value. This parker never returns from park()
  // without a token (stronger than contract 3 demands), which the strict alternation
  // relies on.
  constexpr std::uint64_t round_trips = 200'000;
  const auto t0 = clock_type::now();
  P::parker ping, pong;
  std::uint64_t to_pong = 0, to_ping = 0;  // plain: ordered only by the parkers
  std::uint64_t stale_at_pong = 0, stale_at_ping = 0;
  std::thread other([&] {
    for (std::uint64_t i = 1; i <= round_trips; ++i) {
      pong.park();
      if (to_pong != payload(1, i)) ++stale_at_pong;
      to_ping = payload(2, i);
      ping.unpark();
    }
  });
  for (std::uint64_t i = 1; i <= round_trips; ++i) {
    to_pong = payload(1, i);
    pong.unpark();
    ping.park();
    if (to_ping != payload(2, i)) ++stale_at_ping;
  }
  other.join();
  CHECK(stale_at_pong == 0);
  CHECK(stale_at_ping == 0);
  MESSAGE("parker stress: ", round_trips, " round trips, ", seconds_since(t0), " s");
}

// ---- the actor's idle/scheduled handshake: try_idle against push ---------------------------

namespace {
struct never_called final : behavior {
  void receive(context&, const message&) override {}
};
}  // namespace

TEST_CASE("actor handshake under stress: senders that find the actor idle run it themselves: one owner at a time, nothing stranded" *
          doctest::test_suite("stress") * doctest::timeout(60)) {
  // actor.hpp's protocol with the run queue taken out: a sender whose push finds the actor
  // idle owns it and runs it at once on its own thread, draining the mailbox and releasing
  // it (try_idle). So ownership moves between threads all the time, and the actor's plain
  // state (its tallies below) is handed from one owner to the next only by the release of
  // the idle CAS and the acquire of the next push's exchange. Checked: never two owners
  // (actor_cell::enter, the test builds' guard), each sender's messages in order, every
  // message processed once, one envelope recycled per message, and the actor idle at the end.
  // The owner also sends its own next message after every other message it processes, as a
  // worker does to the actor it holds: on the mailbox's own list if the shared one is empty
  // (mailbox.hpp push_owned), else by push; so one sender's messages are spread over both
  // lists and several owners, and must still come out in order.
  constexpr unsigned senders = 3;
  constexpr std::uint64_t per_round = 20'000;
  constexpr unsigned rounds = 200;
  const auto t0 = clock_type::now();
  envelope_depot<P> depot;
  std::vector<std::unique_ptr<envelope_pool<P>>> pools;
  for (unsigned i = 0; i < senders; ++i) pools.push_back(std::make_unique<envelope_pool<P>>(depot));
  std::atomic<std::uint64_t> two_owners{0}, handovers{0}, reschedules{0}, owner_pushes{0};
  std::uint64_t processed_all = 0, idle_total = 0;
  // Envelopes a thread recycled when its release made the actor idle: counted per thread,
  // since after that release the actor's state belongs to the next owner.
  std::uint64_t recycled_at_idle[senders] = {};
  for (unsigned round = 0; round < rounds; ++round) {
    actor_cell<P> cell(round, std::make_unique<never_called>(), {});
    struct tallies {  // the actor's state: plain fields, touched only by its owner
      std::uint64_t processed = 0, out_of_order = 0, bad_payload = 0, recycled = 0;
      std::uint64_t next[senders] = {};
    } st;
    std::uint64_t sends[senders] = {};  // each sender's count so far: entry i is thread i's
    auto make = [&](unsigned me) {
      node* e = pools[me]->get();
      const std::uint64_t i = sends[me]++;
      e->msg = message{me, i, 0, 0, nullptr};
      e->id = payload(me, i);
      return e;
    };
    auto run_actor = [&](unsigned me) {  // `me` owns the actor: its push found it idle
      handovers.fetch_add(1, std::memory_order_relaxed);
      for (;;) {
        if (cell.enter(me) != 0) two_owners.fetch_add(1, std::memory_order_relaxed);
        node *e = nullptr, *spent = nullptr;
        mailbox<P>::pop_status s;
        while ((s = cell.box().pop(e, spent)) != mailbox<P>::pop_status::empty) {
          if (s == mailbox<P>::pop_status::busy) {  // a sender mid-push: a worker would requeue; we wait
            std::this_thread::yield();
            continue;
          }
          const std::uint64_t from = e->msg.a, i = e->msg.b;
          if (from >= senders || i != st.next[from]) ++st.out_of_order;
          else ++st.next[from];
          if (e->id != payload(from, i)) ++st.bad_payload;
          ++st.processed;
          if (spent) pools[me]->put(spent), ++st.recycled;
          if ((st.processed & 1) && sends[me] < per_round) {  // the owner sends to its own actor
            node* o = make(me);
            if (cell.box().push_owned(o)) owner_pushes.fetch_add(1, std::memory_order_relaxed);
            else if (cell.push(o)) two_owners.fetch_add(1, std::memory_order_relaxed);  // owned: never idle here
          }
        }
        cell.leave();
        node* last = nullptr;
        if (!cell.release(last)) {  // idle now: `last` is ours, the actor (and `st`) is not
          pools[me]->put(last);
          ++recycled_at_idle[me];
          return;
        }
        reschedules.fetch_add(1, std::memory_order_relaxed);  // a push came in: keep running it
      }
    };
    run_threads(senders, [&](unsigned me) {
      while (sends[me] < per_round)
        if (cell.push(make(me))) run_actor(me);
    });
    // The threads are joined: their last owner's writes are visible. The actor is idle.
    std::uint64_t idle_spells = 0;
    for (auto& n : recycled_at_idle) idle_spells += n, n = 0;
    CHECK(cell.box().empty());
    CHECK(st.processed == senders * per_round);
    CHECK(st.out_of_order == 0);
    CHECK(st.bad_payload == 0);
    CHECK(st.recycled + idle_spells == senders * per_round);  // one envelope back per message, spent or last
    processed_all += st.processed;
    idle_total += idle_spells;
  }
  CHECK(two_owners.load() == 0);
  CHECK(processed_all == std::uint64_t(rounds) * senders * per_round);
  CHECK(handovers.load() >= rounds);      // at least the first push of every round took the actor
  CHECK(idle_total == handovers.load());  // and every hand-over ended in exactly one release to idle
  CHECK(owner_pushes.load() > 0);         // the owner's list was used (else its order went unchecked)
  MESSAGE("handshake stress: ", processed_all, " messages, ", handovers.load(), " hand-overs, ", reschedules.load(),
          " releases that lost to a push, ", owner_pushes.load(), " sends on the owner's list, ", seconds_since(t0), " s");
}

TEST_SUITE_END();
