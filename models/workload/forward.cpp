// Workload `forward`: tokens hop between uniformly random actors; each token carries its own PRNG.
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace forward_impl {
namespace {

struct forward_table {
  std::vector<actor_ref> actors;
  std::uint64_t cost_ns = 0;
};

/// Each delivery adds a value that depends only on the token's state and the receiver, so
/// the sum is independent of the order deliveries happen in.
inline std::uint64_t delivery_value(std::uint64_t state, std::uint64_t hops, std::uint32_t receiver) {
  return splitmix64(state ^ (hops << 32) ^ receiver);
}

class forwarder final : public behavior {
 public:
  forwarder(const forward_table& t, std::uint32_t index) : t_(t), index_(index) {}
  void receive(context& ctx, const message& m) override {
    acc_ += delivery_value(m.a, m.b, index_);
    if (t_.cost_ns) ctx.burn_ns(t_.cost_ns);
    if (m.b == 0) return;  // the token's last hop
    std::uint64_t next = minstd_next(m.a);
    ctx.send(t_.actors[next % t_.actors.size()], message{next, m.b - 1});
  }
  std::uint64_t acc() const { return acc_; }

 private:
  const forward_table& t_;
  std::uint32_t index_;
  std::uint64_t acc_ = 0;
};

class forward final : public workload {
 public:
  forward(const workload_params& p, std::uint64_t seed)
      : actors_(std::uint32_t(p.integer("actors"))), tokens_(std::uint64_t(p.integer("tokens"))),
        hops_(std::uint64_t(p.integer("hops"))), seed_(seed) {
    table_.cost_ns = std::uint64_t(p.integer("cost_ns"));
  }

  void start(context& ctx) override {
    for (std::uint32_t i = 0; i < actors_; ++i) {
      auto made = ctx.spawn_as<forwarder>({}, table_, i);
      behaviors_.push_back(&made.behavior);
      table_.actors.push_back(made);
    }
    for (std::uint64_t t = 0; t < tokens_; ++t) ctx.send(table_.actors[first_actor(t)], message{token_seed(t), hops_});
  }

  std::uint64_t checksum() const override { return sum_of_acc(behaviors_); }

  std::uint64_t reference_checksum() const override {
    std::uint64_t sum = 0;
    for (std::uint64_t t = 0; t < tokens_; ++t) {
      std::uint64_t s = token_seed(t);
      std::uint32_t at = first_actor(t);
      for (std::uint64_t h = hops_;; --h) {
        sum += delivery_value(s, h, at);
        if (h == 0) break;
        s = minstd_next(s);
        at = std::uint32_t(s % actors_);
      }
    }
    return sum;
  }

  std::uint64_t expected_messages() const override { return tokens_ * (hops_ + 1); }
  /// Every token is queued at the start; two tables of pointers.
  footprint peak() const override { return {double(actors_), double(tokens_), 16.0 * actors_}; }

 private:
  std::uint64_t token_seed(std::uint64_t t) const { return minstd_seed(seed_ * 1000003 + t); }
  std::uint32_t first_actor(std::uint64_t t) const { return std::uint32_t(t % actors_); }

  std::uint32_t actors_;
  std::uint64_t tokens_, hops_, seed_;
  forward_table table_;
  std::vector<forwarder*> behaviors_;
};

}  // namespace
}  // namespace forward_impl

workload_info forward_workload() {
  using namespace forward_impl;
  return {"forward",
          "tokens forwarded between uniformly random actors (routing carried in each token)",
          {{"actors", std::int64_t(1000), "number of actors", 1, 4294967295.0},
           {"tokens", std::int64_t(200), "actors that start with one token each"},
           {"hops", std::int64_t(100000), "times each token is forwarded before it is dropped"},
           {"cost_ns", std::int64_t(0), "extra CPU work per message, in nanoseconds", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<forward>(p, seed); }};
}

}  // namespace twinsched
