// Workload `skewed`: many actors, a tenth of them hot, receiving nine tenths of the messages; each message burns a fixed CPU cost.
#include <string>
#include <vector>

#include "../config.hpp"
#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace skewed_impl {
namespace {

/// What a delivery adds to the receiver's sum: depends on the message and the receiver
/// only, so the total is independent of the order of deliveries.
inline std::uint64_t delivery_value(std::uint64_t msg, std::uint32_t receiver) {
  return splitmix64(msg ^ (std::uint64_t(receiver) << 40));
}

class skewed_actor final : public behavior {
 public:
  skewed_actor(std::uint32_t index, std::uint64_t cost_ns) : index_(index), cost_ns_(cost_ns) {}
  void receive(context& ctx, const message& m) override {
    acc_ += delivery_value(m.a, index_);
    if (cost_ns_) ctx.burn_ns(cost_ns_);
  }
  std::uint64_t acc() const { return acc_; }

 private:
  std::uint32_t index_;
  std::uint64_t cost_ns_;
  std::uint64_t acc_ = 0;
};

class skewed final : public workload {
 public:
  skewed(const workload_params& p, std::uint64_t seed)
      : actors_(std::uint32_t(p.integer("actors"))), messages_(std::uint64_t(p.integer("messages"))),
        stride_(std::uint32_t(p.integer("hot_stride"))), hot_percent_(std::uint32_t(p.integer("hot_percent"))),
        cost_ns_(std::uint64_t(p.integer("cost_ns"))), seed_(seed) {
    if (hot_percent_ > 100) throw config_error("skewed: hot_percent must be at most 100");
    if (stride_ > actors_) throw config_error("skewed: hot_stride must not exceed actors");
    hot_ = (actors_ + stride_ - 1) / stride_;  // actors 0, stride, 2*stride, ...
  }

  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    for (std::uint32_t i = 0; i < actors_; ++i) {
      auto made = ctx.spawn_as<skewed_actor>({}, i, cost_ns_);
      behaviors_.push_back(&made.behavior);
      refs.push_back(made);
    }
    for (std::uint64_t j = 0; j < messages_; ++j) ctx.send(refs[target(j)], message{j});
  }

  std::uint64_t checksum() const override { return sum_of_acc(behaviors_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t j = 0; j < messages_; ++j) s += delivery_value(j, target(j));
    return s;
  }
  std::uint64_t expected_messages() const override { return messages_; }
  /// Every message is queued at the start; two tables of pointers.
  footprint peak() const override { return {double(actors_), double(messages_), 16.0 * actors_}; }

 private:
  /// Message j goes to a hot actor (every `stride`-th) with probability hot_percent, else
  /// to a cold one; uniform within each set. A pure function of j and the seed.
  std::uint32_t target(std::uint64_t j) const {
    std::uint64_t r = splitmix64(seed_ * 0x9e3779b97f4a7c15ull + j);
    bool hot = (r % 100) < hot_percent_ || hot_ == actors_;
    std::uint64_t pick = r >> 8;
    if (hot) return std::uint32_t(pick % hot_) * stride_;
    std::uint32_t cold = actors_ - hot_;
    std::uint32_t c = std::uint32_t(pick % cold);  // the c-th actor that is not a multiple of stride
    return c / (stride_ - 1) * stride_ + c % (stride_ - 1) + 1;
  }

  std::uint32_t actors_;
  std::uint64_t messages_;
  std::uint32_t stride_, hot_percent_;
  std::uint64_t cost_ns_, seed_;
  std::uint32_t hot_ = 0;
  std::vector<skewed_actor*> behaviors_;
};

}  // namespace
}  // namespace skewed_impl

workload_info skewed_workload() {
  using namespace skewed_impl;
  return {"skewed",
          "messages injected at start, 90% of them to the 10% hot actors; each message burns a fixed cost",
          {{"actors", std::int64_t(1000), "number of actors", 1, 4294967295.0},
           {"messages", std::int64_t(100000), "messages injected before the run"},
           {"hot_stride", std::int64_t(10), "every hot_stride-th actor is hot (default: 10% of actors)", 2, 4294967295.0},
           {"hot_percent", std::int64_t(90), "percent of the messages that go to hot actors", 0, 100},
           {"cost_ns", std::int64_t(2000), "CPU work per message, in nanoseconds", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<skewed>(p, seed); }};
}

}  // namespace twinsched
