// Savina's Thread Ring: `actors` actors in a ring, each learning its successor from a data
// message; one ping goes round `hops` times, then an exit goes round once, stopping every actor.
// Only one message is in flight at a time: it measures passing a message to an actor that last
// ran elsewhere.
#include <cstdio>
#include <vector>

#include "savina.hpp"
#include "threadring.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_threadring_impl {
namespace {
using namespace savina_threadring;

class ring_actor final : public behavior {
 public:
  ring_actor(std::uint64_t id, std::uint64_t actors) : id_(id), actors_(actors) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == data) {
      acc_ += value(id_, data, 0);
      next_ = actor_ref(reinterpret_cast<actor*>(m.a));  // the successor, as Savina's DataMessage carries it
      return;
    }
    acc_ += value(id_, m.tag, m.a);
    if (m.tag == ping) {
      ++pings_;
      ctx.send(next_, m.a > 0 ? message{m.a - 1, 0, ping} : message{actors_, 0, exit});
    } else {
      if (m.a > 0) ctx.send(next_, message{m.a - 1, 0, exit});
      stopped_ = true;
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t pings_ = 0;
  bool stopped_ = false;

 private:
  std::uint64_t id_, actors_, acc_ = 0;
  actor_ref next_;
};

class threadring final : public savina_workload {
 public:
  explicit threadring(const workload_params& p)
      : actors_(std::uint64_t(p.integer("actors"))), hops_(std::uint64_t(p.integer("hops"))) {}

  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    for (std::uint64_t i = 0; i < actors_; ++i) {
      auto a = ctx.spawn_as<ring_actor>({}, i, actors_);
      refs.push_back(a);
      ring_.push_back(&a.behavior);
    }
    for (std::uint64_t i = 0; i < actors_; ++i)
      ctx.send(refs[i], message{reinterpret_cast<std::uint64_t>(refs[(i + 1) % actors_].get()), 0, data});
    ctx.send(refs[0], message{hops_, 0, ping});
  }

  std::uint64_t checksum() const override { return sum_of_acc(ring_); }
  std::uint64_t reference_checksum() const override { return savina_threadring::reference_checksum(actors_, hops_); }
  std::uint64_t expected_messages() const override { return messages(actors_, hops_); }
  footprint peak() const override { return {double(actors_), double(actors_) + 1, 8.0 * double(actors_)}; }
  bool result_ok() const override {
    std::uint64_t pings = 0, stopped = 0;
    for (const auto* a : ring_) {
      pings += a->pings_;
      stopped += a->stopped_;
    }
    return savina_threadring::result_ok(actors_, hops_, pings, stopped);
  }
  std::string detail() const override {
    std::uint64_t pings = 0;
    for (const auto* a : ring_) pings += a->pings_;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu hops of %llu taken", static_cast<unsigned long long>(pings ? pings - 1 : 0),
                  static_cast<unsigned long long>(hops_));
    return buf;
  }

 private:
  std::uint64_t actors_, hops_;
  std::vector<ring_actor*> ring_;
};

}  // namespace
}  // namespace savina_threadring_impl

workload_info savina_threadring_workload() {
  using namespace savina_threadring_impl;
  return {"savina-threadring",
          "Savina Thread Ring: one message passed round a ring of actors (hand-off to the next actor)",
          {{"actors", std::int64_t(100), "actors in the ring (Savina's N)", 1, 1e6},
           {"hops", std::int64_t(100000), "times the ping is passed on (Savina's R)", 0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<threadring>(p); }};
}

}  // namespace twinsched
