// Mailbox tests: FIFO per producer, exactly-once delivery under concurrent producers.
#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "models/mailbox.hpp"
#include "runtime/thread_platform.hpp"

using namespace twinsched;
using P = thread_platform;

TEST_CASE("an empty mailbox pops nothing and reports empty") {
  mailbox<P> box;
  envelope_base<P>* e = nullptr;
  CHECK(box.pop(e) == mailbox<P>::pop_status::empty);
  CHECK(box.empty());
  CHECK_FALSE(box.pushed_since_drain());
}

TEST_CASE("one producer's messages come out in push order, then the mailbox is empty again") {
  mailbox<P> box;
  std::vector<envelope<P>> es(100);
  for (std::size_t i = 0; i < es.size(); ++i) {
    es[i].id = i;
    box.push(&es[i]);
  }
  CHECK_FALSE(box.empty());
  for (std::size_t i = 0; i < es.size(); ++i) {
    envelope_base<P>* e = nullptr;
    REQUIRE(box.pop(e) == mailbox<P>::pop_status::item);
    CHECK(static_cast<envelope<P>*>(e)->id == i);
  }
  envelope_base<P>* e = nullptr;
  CHECK(box.pop(e) == mailbox<P>::pop_status::empty);
  CHECK(box.empty());
}

TEST_CASE("concurrent producers: every envelope popped exactly once, each producer in order" *
          doctest::test_suite("concurrency") * doctest::timeout(60)) {
  constexpr int producers = 4, per = 50'000;
  mailbox<P> box;
  std::vector<envelope<P>> es(std::size_t(producers) * per);
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
    envelope_base<P>* e = nullptr;
    auto st = box.pop(e);
    if (st != mailbox<P>::pop_status::item) {
      busy += st == mailbox<P>::pop_status::busy;
      continue;
    }
    auto id = static_cast<envelope<P>*>(e)->id;
    int p = int(id >> 32);
    std::int64_t i = std::int64_t(id & 0xffffffff);
    REQUIRE(i == last[std::size_t(p)] + 1);
    last[std::size_t(p)] = i;
    ++got;
  }
  for (auto& t : ts) t.join();
  envelope_base<P>* e = nullptr;
  CHECK(box.pop(e) == mailbox<P>::pop_status::empty);
  MESSAGE("consumer saw a producer mid-push " << busy << " times");
}
