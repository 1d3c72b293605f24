// Mailbox tests: FIFO per producer, exactly-once delivery under concurrent producers.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "models/mailbox.hpp"
#include "runtime/thread_platform.hpp"

using namespace twinsched;
using P = thread_platform;

using node = envelope<P>;

TEST_CASE("an empty mailbox pops nothing, reports empty, and notices a push after its mark") {
  node dummy, e1;
  mailbox<P> box(&dummy);
  node *e = nullptr, *spent = nullptr;
  CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
  CHECK(box.empty());
  const node* mark = box.mark();
  CHECK_FALSE(box.pushed_since(mark));
  box.push(&e1);
  CHECK(box.pushed_since(mark));
}

TEST_CASE("one producer's messages come out in push order, then the mailbox is empty again") {
  node dummy;
  mailbox<P> box(&dummy);
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
}

TEST_CASE("concurrent producers: every envelope popped exactly once, each producer in order" *
          doctest::test_suite("concurrency") * doctest::timeout(60)) {
  constexpr int producers = 4, per = 50'000;
  node dummy;
  mailbox<P> box(&dummy);
  std::vector<node> es(std::size_t(producers) * per);
  std::vector<std::thread> ts;
  for (int p = 0; p < producers; ++p)
    ts.emplace_back([&, p] {
      for (int i = 0; i < per; ++i) {
        auto& e = es[std::size_t(p) * per + i];
        e.id = (std::uint64_t(p) << 32) | std::uint64_t(i);
        box.push(&e);
      }
    });
  std::vector<std::int64_t> last(producers, -1);
  std::size_t got = 0, busy = 0;
  while (got < es.size()) {
    node *e = nullptr, *spent = nullptr;
    auto st = box.pop(e, spent);
    if (st != mailbox<P>::pop_status::item) {
      busy += st == mailbox<P>::pop_status::busy;
      continue;
    }
    auto id = e->id;
    int p = int(id >> 32);
    std::int64_t i = std::int64_t(id & 0xffffffff);
    REQUIRE(i == last[std::size_t(p)] + 1);
    last[std::size_t(p)] = i;
    ++got;
  }
  for (auto& t : ts) t.join();
  node *e = nullptr, *spent = nullptr;
  CHECK(box.pop(e, spent) == mailbox<P>::pop_status::empty);
  MESSAGE("consumer saw a producer mid-push " << busy << " times");
}
