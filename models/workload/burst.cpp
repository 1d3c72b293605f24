// Workload `burst`: load in three phases: a light sequential trickle, a heavy burst spread over many actors, the trickle again.
//
// A pacer actor runs `idle_msgs` light messages one after another (a chain it sends to
// itself: one core's worth of work at most, the rest of the machine idle), then sends
// `burst_msgs` heavy messages spread round robin over `actors` actors, waits until every
// one of them has reported its share done, and runs the light chain again. The phases are
// made of work, not of time (models/ has no clock), so they scale with `cost_ns`.
// With `adaptive`, threads are expected to start during the burst and retire in the
// trickle after it.
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace burst_impl {
namespace {

constexpr std::uint32_t light_tag = 1, heavy_tag = 2, report_tag = 3;

inline std::uint64_t value(std::uint64_t seed, std::uint32_t tag, std::uint64_t phase, std::uint64_t k) {
  return splitmix64(seed ^ (std::uint64_t(tag) << 60) ^ (phase << 56) ^ k);
}

struct burst_setup {
  std::uint64_t actors = 0, burst_msgs = 0, cost_ns = 0, idle_msgs = 0, idle_cost_ns = 0, seed = 0;
  actor_ref pacer;
  std::vector<actor_ref> crowd;
  /// Heavy messages actor i receives: those j < burst_msgs with j % actors == i.
  std::uint64_t share(std::uint64_t i) const { return burst_msgs / actors + (i < burst_msgs % actors ? 1 : 0); }
  std::uint64_t reporting() const { return burst_msgs < actors ? burst_msgs : actors; }
};

class crowd_member final : public behavior {
 public:
  crowd_member(const burst_setup& s, std::uint64_t index) : s_(s), index_(index) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(s_.seed, heavy_tag, 0, m.a);
    if (s_.cost_ns) ctx.burn_ns(s_.cost_ns);
    if (++got_ == s_.share(index_)) ctx.send(s_.pacer, message{index_, 0, report_tag});
  }
  std::uint64_t acc() const { return acc_; }

 private:
  const burst_setup& s_;
  std::uint64_t index_, got_ = 0;
  std::uint64_t acc_ = 0;
};

class pacer final : public behavior {
 public:
  explicit pacer(const burst_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == report_tag) {
      acc_ += value(s_.seed, report_tag, 0, m.a);
      if (++reports_ == s_.reporting()) {
        phase_ = 2;
        ctx.send(ctx.self(), message{0, 0, light_tag});
      }
      return;
    }
    acc_ += value(s_.seed, light_tag, phase_, m.a);
    if (s_.idle_cost_ns) ctx.burn_ns(s_.idle_cost_ns);
    if (m.a + 1 < s_.idle_msgs) {
      ctx.send(ctx.self(), message{m.a + 1, 0, light_tag});
    } else if (phase_ == 0) {
      phase_ = 1;
      for (std::uint64_t j = 0; j < s_.burst_msgs; ++j) ctx.send(s_.crowd[j % s_.actors], message{j, 0, heavy_tag});
    } else {
      finished_ = true;
    }
  }
  std::uint64_t acc() const { return acc_; }
  bool finished() const { return finished_; }

 private:
  const burst_setup& s_;
  std::uint64_t phase_ = 0, reports_ = 0;
  std::uint64_t acc_ = 0;
  bool finished_ = false;
};

class burst final : public workload {
 public:
  burst(const workload_params& p, std::uint64_t seed) {
    s_.actors = std::uint64_t(p.integer("actors"));
    s_.burst_msgs = std::uint64_t(p.integer("burst_msgs"));
    s_.cost_ns = std::uint64_t(p.integer("cost_ns"));
    s_.idle_msgs = std::uint64_t(p.integer("idle_msgs"));
    s_.idle_cost_ns = std::uint64_t(p.integer("idle_cost_ns"));
    s_.seed = seed;
  }

  void start(context& ctx) override {
    auto made = ctx.spawn_as<pacer>({.name = "burst-pacer"}, s_);
    pacer_ = &made.behavior;
    s_.pacer = made;
    for (std::uint64_t i = 0; i < s_.actors; ++i) {
      auto member = ctx.spawn_as<crowd_member>({}, s_, i);
      crowd_.push_back(&member.behavior);
      s_.crowd.push_back(member);
    }
    ctx.send(s_.pacer, message{0, 0, light_tag});
  }

  std::uint64_t checksum() const override { return pacer_->acc() + sum_of_acc(crowd_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t phase : {0, 2})
      for (std::uint64_t k = 0; k < s_.idle_msgs; ++k) s += value(s_.seed, light_tag, phase, k);
    for (std::uint64_t j = 0; j < s_.burst_msgs; ++j) s += value(s_.seed, heavy_tag, 0, j);
    for (std::uint64_t i = 0; i < s_.reporting(); ++i) s += value(s_.seed, report_tag, 0, i);
    return s;
  }
  std::uint64_t expected_messages() const override { return 2 * s_.idle_msgs + s_.burst_msgs + s_.reporting(); }
  bool result_ok() const override { return pacer_->finished(); }
  /// The burst is sent at once; the pacer and the crowd.
  footprint peak() const override { return {double(s_.actors) + 1, double(s_.burst_msgs), 16.0 * double(s_.actors)}; }

 private:
  burst_setup s_;
  pacer* pacer_ = nullptr;
  std::vector<crowd_member*> crowd_;
};

}  // namespace
}  // namespace burst_impl

workload_info burst_workload() {
  using namespace burst_impl;
  return {"burst",
          "a light sequential trickle, a heavy burst over many actors, the trickle again: load in phases",
          {{"actors", std::int64_t(64), "actors the burst is spread over"},
           {"burst_msgs", std::int64_t(20000), "heavy messages in the burst"},
           {"cost_ns", std::int64_t(5000), "CPU work per heavy message, in nanoseconds", 0},
           {"idle_msgs", std::int64_t(5000), "light messages in each quiet phase, one after another"},
           {"idle_cost_ns", std::int64_t(2000), "CPU work per light message, in nanoseconds", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<burst>(p, seed); }};
}

}  // namespace twinsched
