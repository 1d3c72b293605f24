// Workload `fanout-idle`: a few producers wake many mostly idle actors with sparse messages, one message per wake-up.
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace fanout_idle_impl {
namespace {

inline std::uint64_t delivery_value(std::uint64_t state, std::uint32_t receiver) {
  return splitmix64(state ^ (std::uint64_t(receiver) << 40));
}

struct fanout_setup {
  std::vector<actor_ref> targets;
  std::uint64_t batch = 0, cost_ns = 0;
};

class sleeper final : public behavior {
 public:
  sleeper(const fanout_setup& s, std::uint32_t index) : s_(s), index_(index) {}
  void receive(context& ctx, const message& m) override {
    acc_ += delivery_value(m.a, index_);
    if (s_.cost_ns) ctx.burn_ns(s_.cost_ns);
  }
  std::uint64_t acc() const { return acc_; }

 private:
  const fanout_setup& s_;
  std::uint32_t index_;
  std::uint64_t acc_ = 0;
};

/// Sends its messages `batch` at a time, then a message to itself to send the next batch,
/// so producers interleave with the work they cause. Its PRNG state travels with it, so
/// the targets are a pure function of the seed.
class producer final : public behavior {
 public:
  producer(const fanout_setup& s, std::uint64_t state, std::uint64_t count) : s_(s), state_(state), left_(count) {}
  void receive(context& ctx, const message&) override {
    for (std::uint64_t k = 0; k < s_.batch && left_ > 0; ++k, --left_) {
      state_ = minstd_next(state_);
      ctx.send(s_.targets[state_ % s_.targets.size()], message{state_});
    }
    if (left_ > 0) ctx.send(ctx.self(), message{});
  }

 private:
  const fanout_setup& s_;
  std::uint64_t state_, left_;
};

class fanout_idle final : public workload {
 public:
  fanout_idle(const workload_params& p, std::uint64_t seed)
      : actors_(std::uint32_t(p.integer("actors"))), producers_(std::uint32_t(p.integer("producers"))),
        messages_(std::uint64_t(p.integer("messages"))), seed_(seed) {
    s_.batch = std::uint64_t(p.integer("batch"));
    s_.cost_ns = std::uint64_t(p.integer("cost_ns"));
  }

  void start(context& ctx) override {
    for (std::uint32_t i = 0; i < actors_; ++i) {
      auto made = ctx.spawn_as<sleeper>({}, s_, i);
      sleepers_.push_back(&made.behavior);
      s_.targets.push_back(made);
    }
    for (std::uint32_t p = 0; p < producers_; ++p)
      ctx.send(ctx.spawn_as<producer>({.name = "producer"}, s_, first_state(p), share(p)), message{});
  }

  std::uint64_t checksum() const override { return sum_of_acc(sleepers_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint32_t p = 0; p < producers_; ++p) {
      std::uint64_t st = first_state(p);
      for (std::uint64_t k = 0; k < share(p); ++k) {
        st = minstd_next(st);
        s += delivery_value(st, std::uint32_t(st % actors_));
      }
    }
    return s;
  }
  std::uint64_t expected_messages() const override {
    std::uint64_t n = messages_;
    for (std::uint32_t p = 0; p < producers_; ++p) n += share(p) == 0 ? 1 : (share(p) + s_.batch - 1) / s_.batch;
    return n;
  }
  /// Producers may run ahead of the sleepers: up to every message queued; two tables of pointers.
  footprint peak() const override {
    return {double(actors_) + producers_, double(messages_), 16.0 * actors_};
  }

 private:
  std::uint64_t first_state(std::uint32_t p) const { return minstd_seed(seed_ * 7919 + p); }
  std::uint64_t share(std::uint32_t p) const { return messages_ / producers_ + (p < messages_ % producers_ ? 1 : 0); }

  std::uint32_t actors_, producers_;
  std::uint64_t messages_, seed_;
  fanout_setup s_;
  std::vector<sleeper*> sleepers_;
};

}  // namespace
}  // namespace fanout_idle_impl

workload_info fanout_idle_workload() {
  using namespace fanout_idle_impl;
  return {"fanout-idle",
          "a few producers send sparse messages to many idle actors: every message wakes an actor",
          {{"actors", std::int64_t(100000), "mostly idle actors", 1, 4294967295.0},
           {"producers", std::int64_t(4), "producer actors", 1, 4294967295.0},
           {"messages", std::int64_t(400000), "messages the producers send in all"},
           {"batch", std::int64_t(64), "messages a producer sends per turn before rescheduling itself"},
           {"cost_ns", std::int64_t(0), "CPU work per message received, in nanoseconds", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<fanout_idle>(p, seed); }};
}

}  // namespace twinsched
