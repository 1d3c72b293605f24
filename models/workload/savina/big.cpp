// Savina's Big: `actors` actors each send `pings` pings, one at a time, each to a neighbour
// drawn at random (itself included), and answer every ping they receive with a pong; after its
// last pong an actor tells a sink, which stops everyone once all have. Many-to-many traffic
// among many actors at once.
//
// Each actor draws its targets from its own stream of the run's seed (Savina: a 16-bit LCG
// seeded with the actor's index), so the targets, and the checksum, do not depend on the
// interleaving.
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <vector>

#include "big.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_big_impl {
namespace {
using namespace savina_big;

/// The neighbour table an actor received; a message before it is a failed run, not a crash.
const std::vector<actor_ref>& table(const std::vector<actor_ref>* t) {
  if (!t) throw std::logic_error("a message came before the neighbour table");
  return *t;
}

class big_actor final : public behavior {
 public:
  big_actor(std::uint64_t id, std::uint64_t pings, std::uint64_t seed, actor_ref sink)
      : id_(id), pings_(pings), random_(stream(seed, id)), sink_(sink) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(id_, m.tag, m.tag == neighbors ? 0 : m.a);  // the table's address is no part of it
    switch (m.tag) {
      case neighbors:
        neighbors_ = reinterpret_cast<const std::vector<actor_ref>*>(m.a);
        break;
      case ping:
        ctx.send(table(neighbors_)[m.a], message{id_, 0, pong});
        break;
      case pong:
        ++pongs_;
        wrong_ += m.a != expected_;
        if (sent_ == pings_) {
          ctx.send(sink_, message{0, 0, exit});
        } else {
          expected_ = random_.below(std::uint32_t(table(neighbors_).size()));
          ctx.send(table(neighbors_)[expected_], message{id_, 0, ping});
          ++sent_;
        }
        break;
      default:
        stopped_ = true;
        ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t pongs_ = 0, wrong_ = 0;
  bool stopped_ = false;

 private:
  std::uint64_t id_, pings_;
  rng random_;
  actor_ref sink_;
  const std::vector<actor_ref>* neighbors_ = nullptr;
  std::uint64_t sent_ = 0, expected_ = nobody, acc_ = 0;
};

class sink final : public behavior {
 public:
  explicit sink(std::uint64_t actors) : actors_(actors) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == neighbors) {
      neighbors_ = reinterpret_cast<const std::vector<actor_ref>*>(m.a);
      acc_ += value(actors_, neighbors, 0);
      return;
    }
    acc_ += value(actors_, exit, 0);
    if (++exits_ == actors_) {
      for (actor_ref a : table(neighbors_)) ctx.send(a, message{0, 0, exit});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t exits_ = 0;

 private:
  std::uint64_t actors_;
  const std::vector<actor_ref>* neighbors_ = nullptr;
  std::uint64_t acc_ = 0;
};

class big final : public savina_workload {
 public:
  big(const workload_params& p, std::uint64_t seed)
      : actors_(std::uint64_t(p.integer("actors"))), pings_(std::uint64_t(p.integer("pings"))), seed_(seed) {}

  void start(context& ctx) override {
    auto s = ctx.spawn_as<sink>({.name = "sink"}, actors_);
    sink_ = &s.behavior;
    for (std::uint64_t i = 0; i < actors_; ++i) {
      auto a = ctx.spawn_as<big_actor>({}, i, pings_, seed_, s.ref);
      refs_.push_back(a);
      actors_list_.push_back(&a.behavior);
    }
    const message table{reinterpret_cast<std::uint64_t>(&refs_), 0, neighbors};
    ctx.send(s, table);
    for (actor_ref a : refs_) ctx.send(a, table);
    for (actor_ref a : refs_) ctx.send(a, message{nobody, 0, pong});
  }

  std::uint64_t checksum() const override { return sink_->acc() + sum_of_acc(actors_list_); }
  std::uint64_t reference_checksum() const override { return savina_big::reference_checksum(actors_, pings_, seed_); }
  std::uint64_t expected_messages() const override { return messages(actors_, pings_); }
  /// At most one ping of each actor's in flight, with its pong, plus the exits.
  footprint peak() const override { return {double(actors_) + 1, 3.0 * double(actors_) + 1, 16.0 * double(actors_)}; }
  bool result_ok() const override {
    std::vector<std::uint64_t> pongs;
    std::uint64_t wrong = 0, stopped = 0;
    for (const auto* a : actors_list_) {
      pongs.push_back(a->pongs_);
      wrong += a->wrong_;
      stopped += a->stopped_;
    }
    return savina_big::result_ok(actors_, pings_, pongs, wrong, sink_->exits_, stopped);
  }
  std::string detail() const override {
    std::uint64_t pongs = 0;
    for (const auto* a : actors_list_) pongs += a->pongs_;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu pings answered of %llu", static_cast<unsigned long long>(pongs - std::min(pongs, actors_)),
                  static_cast<unsigned long long>(actors_ * pings_));
    return buf;
  }

 private:
  std::uint64_t actors_, pings_, seed_;
  std::vector<actor_ref> refs_;
  std::vector<big_actor*> actors_list_;
  sink* sink_ = nullptr;
};

}  // namespace
}  // namespace savina_big_impl

workload_info savina_big_workload() {
  using namespace savina_big_impl;
  return {"savina-big",
          "Savina Big: many actors ping random neighbours and answer their pings (many-to-many traffic)",
          {{"actors", std::int64_t(120), "actors (Savina's W)", 1, 4294967295.0},
           {"pings", std::int64_t(20000), "pings each actor sends (Savina's N)", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<big>(p, seed); }};
}

}  // namespace twinsched
