// Workload `pingpong`: pairs of actors bounce one message back and forth N times each.
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace pingpong_impl {
namespace {

class player final : public behavior {
 public:
  explicit player(std::uint64_t cost_ns) : cost_ns_(cost_ns) {}
  void set_partner(actor_ref p) { partner_ = p; }
  void receive(context& ctx, const message& m) override {
    acc_ += splitmix64(m.a ^ (m.b << 40));
    if (cost_ns_) ctx.burn_ns(cost_ns_);
    if (m.a > 1) ctx.send(partner_, message{m.a - 1, m.b});
  }
  std::uint64_t acc() const { return acc_; }

 private:
  actor_ref partner_;
  std::uint64_t cost_ns_;
  std::uint64_t acc_ = 0;
};

class pingpong final : public workload {
 public:
  explicit pingpong(const workload_params& p)
      : pairs_(std::uint64_t(p.integer("pairs"))), bounces_(std::uint64_t(p.integer("bounces"))),
        cost_ns_(std::uint64_t(p.integer("cost_ns"))) {}

  void start(context& ctx) override {
    std::vector<actor_ref> pings;
    for (std::uint64_t i = 0; i < pairs_; ++i) {
      auto a = ctx.spawn_as<player>({}, cost_ns_), b = ctx.spawn_as<player>({}, cost_ns_);
      a.behavior.set_partner(b);
      b.behavior.set_partner(a);
      players_.push_back(&a.behavior);
      players_.push_back(&b.behavior);
      pings.push_back(a);
    }
    for (std::uint64_t i = 0; i < pairs_; ++i) ctx.send(pings[i], message{bounces_, i});
  }

  std::uint64_t checksum() const override { return sum_of_acc(players_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t i = 0; i < pairs_; ++i)
      for (std::uint64_t n = bounces_; n >= 1; --n) s += splitmix64(n ^ (i << 40));
    return s;
  }
  std::uint64_t expected_messages() const override { return pairs_ * bounces_; }
  /// One ball per pair; two tables of pointers.
  footprint peak() const override { return {2.0 * double(pairs_), double(pairs_), 24.0 * double(pairs_)}; }

 private:
  std::uint64_t pairs_, bounces_, cost_ns_;
  std::vector<player*> players_;
};

}  // namespace
}  // namespace pingpong_impl

workload_info pingpong_workload() {
  using namespace pingpong_impl;
  return {"pingpong",
          "pairs of actors bouncing one message back and forth",
          {{"pairs", std::int64_t(1), "number of independent pairs"},
           {"bounces", std::int64_t(1000000), "messages processed per pair"},
           {"cost_ns", std::int64_t(0), "extra CPU work per message, in nanoseconds", 0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<pingpong>(p); }};
}

}  // namespace twinsched
