// Mailbox tests: FIFO per producer, exactly-once delivery under concurrent producers; the depot its envelopes come from.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "models/envelope_pool.hpp"
#include "models/huge_pages.hpp"
#include "models/mailbox.hpp"
#include "platform_harness.hpp"

TEST_SUITE_BEGIN("unit");  // this file's default label (tests/CMakeLists.txt)

using namespace twinsched;
using namespace twinsched::testing;

// Each case runs on threads and in simulation: the sequential semantics of every operation
// hold over either platform's atomics.

TEST_CASE_TEMPLATE("a new mailbox is idle and empty: the first push hands the actor over, later pushes do not",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node e1, e2;
    mailbox<P> box;
    CHECK(box.empty());
    CHECK(box.push(&e1));        // idle before: the pusher owns the actor now
    CHECK_FALSE(box.empty());
    CHECK_FALSE(box.push(&e2));  // owned: nothing to schedule
    node d;
    CHECK_FALSE(box.try_claim(&d));
  });
}

TEST_CASE_TEMPLATE("going idle fails if a message came in after the owner saw the mailbox empty",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node e1, e2, e3;
    mailbox<P> box;
    REQUIRE(box.push(&e1));
    node *e = nullptr, *spent = nullptr;
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &e1);
    CHECK(spent == nullptr);  // the first message of an idle mailbox was linked onto nothing
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
    CHECK_FALSE(box.push(&e2));          // still owned
    CHECK_FALSE(box.try_idle(spent));    // e2 is unconsumed: the owner keeps the actor
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &e2);
    CHECK(spent == &e1);
    node* last = nullptr;
    CHECK(box.try_idle(last));  // drained: idle now, and the last dummy is handed back
    CHECK(last == &e2);
    CHECK(box.empty());
    CHECK(box.push(&e3));  // so this push takes the actor
  });
}

TEST_CASE_TEMPLATE("an idle actor is claimed exactly once, and a claimed one is not scheduled by a push",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node d1, d2, e1;
    mailbox<P> box;
    CHECK(box.try_claim(&d1));
    CHECK_FALSE(box.try_claim(&d2));
    CHECK_FALSE(box.push(&e1));
    node *e = nullptr, *spent = nullptr;
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &e1);
    CHECK(spent == &d1);
    node* last = nullptr;
    CHECK(box.try_idle(last));
    CHECK(box.try_claim(&d2));
  });
}

TEST_CASE_TEMPLATE("one producer's messages come out in push order, then the mailbox is empty again",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node dummy;
    mailbox<P> box;
    REQUIRE(box.try_claim(&dummy));  // owned, with a dummy: consumer-side tests start here
    std::vector<node> es(100);
    for (std::size_t i = 0; i < es.size(); ++i) {
      es[i].id = i;
      box.push(&es[i]);
    }
    CHECK_FALSE(box.empty());
    const node* previous = &dummy;
    for (std::size_t i = 0; i < es.size(); ++i) {
      node *e = nullptr, *spent = nullptr;
      REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
      CHECK(e->id == i);
      CHECK(spent == previous);  // the old dummy is handed back, exactly once
      previous = e;
    }
    node *e = nullptr, *spent = nullptr;
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
    CHECK(box.empty());
  });
}

TEST_CASE_TEMPLATE("owner pushes need no exchange, pop before the shared list, and keep the actor owned",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node d, o1, o2, o3, s1, s2;
    mailbox<P> box;
    CHECK_FALSE(box.push_owned(&o1));  // idle: nobody owns it, so nobody may queue on its own list
    REQUIRE(box.try_claim(&d));
    CHECK(box.push_owned(&o1));        // owned, shared list empty: taken
    CHECK(box.push_owned(&o2));
    CHECK_FALSE(box.empty());
    CHECK(box.pushed_since_empty());   // the holder's settle sees it
    CHECK(box.backlog(10) == 2);
    CHECK(box.backlog(1) == 1);        // counts at most the limit
    node* last = nullptr;
    CHECK_FALSE(box.try_idle(last));   // never idle with mail on the owner's list
    CHECK_FALSE(box.push(&s1));        // another sender: the shared list
    CHECK_FALSE(box.push_owned(&o3));  // refused: s1 waits in the shared list (o3 would pass it)
    CHECK(box.backlog(10) == 3);
    node *e = nullptr, *spent = nullptr;
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &o1);
    CHECK(spent == &o1);  // the owner's list keeps no dummy: the caller recycles the message itself
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &o2);
    CHECK(spent == &o2);
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &s1);
    CHECK(spent == &d);  // the shared list as before
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
    CHECK_FALSE(box.pushed_since_empty());
    CHECK(box.push_owned(&o3));  // the shared list is empty again
    CHECK_FALSE(box.push(&s2));
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &o3);
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &s2);
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
    CHECK(box.try_idle(last));
    CHECK(last == &s2);
    CHECK(box.empty());
  });
}

TEST_CASE_TEMPLATE("an owner push is refused while the message that made the pusher the owner is unconsumed",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using node = envelope<P>;
    node e1, o1;
    mailbox<P> box;
    REQUIRE(box.push(&e1));  // idle: this pusher owns the actor, and e1 is still to pop
    CHECK_FALSE(box.push_owned(&o1));  // o1 would come out before e1
    node *e = nullptr, *spent = nullptr;
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &e1);
    CHECK(box.push_owned(&o1));
    REQUIRE(box.pop(e, spent) == mailbox<P>::pop_status::item);
    CHECK(e == &o1);
    CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
  });
}

// The concurrent tests of this protocol run on both platforms: tests/models/protocols_test.cpp.

TEST_CASE_TEMPLATE("the depot carves envelopes out of regions: slots in order across regions, each one new, distinct and aligned",
                   P, thread_platform, sim_platform) {
  on_one_worker<P>([](P&) {
    using depot_type = envelope_depot<P>;
    constexpr std::size_t batch = depot_type::batch;
    const std::size_t batches = depot_type::per_region / batch + 3;  // into a second region
    depot_type depot;
    std::vector<envelope<P>*> got(batch);
    std::set<envelope<P>*> seen;
    std::size_t misnumbered = 0, misaligned = 0, dirty = 0;
    for (std::size_t b = 0; b < batches; ++b) {
      depot.take(got.data());
      for (std::size_t i = 0; i < batch; ++i) {
        envelope<P>* e = got[i];
        misnumbered += e->slot != b * batch + i;
        misaligned += reinterpret_cast<std::uintptr_t>(e) % 64 != 0;
        dirty += e->next.load(std::memory_order_relaxed) != nullptr || e->id != 0 || e->seq != 0;
        seen.insert(e);
      }
    }
    CHECK(misnumbered == 0);
    CHECK(misaligned == 0);
    CHECK(dirty == 0);
    CHECK(seen.size() == batches * batch);
    // A batch given back is the next one taken, before anything new is carved.
    const std::set<envelope<P>*> given(got.begin(), got.end());
    depot.give(got.data());
    depot.take(got.data());
    CHECK(std::set<envelope<P>*>(got.begin(), got.end()) == given);
    depot.take(got.data());
    CHECK(got.front()->slot == batches * batch);
  });
}

TEST_CASE("on real cores a region is 2 MiB aligned and writable to its end") {
  constexpr std::size_t bytes = std::size_t(4) << 20;
  void* p = thread_platform::take_pages(bytes);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % (std::size_t(2) << 20) == 0);
  std::memset(p, 0x5a, bytes);
  CHECK(static_cast<unsigned char*>(p)[bytes - 1] == 0x5a);
  thread_platform::give_pages(p, bytes);
}

TEST_CASE("a big array's vector: huge-page spans from 2 MiB, 2 MiB aligned, the heap below, and copies, growth and shrinking keep the values") {
  using big = std::vector<std::uint64_t, big_array_allocator<std::uint64_t>>;
  constexpr std::size_t huge = std::size_t(2) << 20, many = huge / sizeof(std::uint64_t) + 1000;
  big v;
  for (std::uint64_t i = 0; i < 1000; ++i) v.push_back(i * 3);  // the heap
  v.reserve(many);                                                // a span: the values move over
  CHECK(reinterpret_cast<std::uintptr_t>(v.data()) % huge == 0);
  CHECK(v.size() == 1000);
  CHECK(v[999] == 2997);
  v.resize(many);  // uninitialized: written in turn
  for (std::size_t i = 1000; i < many; ++i) v[i] = i * 3;
  const big copy(v.begin(), v.end());
  CHECK(reinterpret_cast<std::uintptr_t>(copy.data()) % huge == 0);
  CHECK(copy.back() == (many - 1) * 3);
  v.resize(10);  // shrinking keeps the span
  CHECK(v.capacity() >= many);
  CHECK(v[9] == 27);
  big small(v.begin(), v.end());
  CHECK(small == big{0, 3, 6, 9, 12, 15, 18, 21, 24, 27});
}

TEST_SUITE_END();
