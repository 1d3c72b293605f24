#include "twin/calibration_ring.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "models/actor.hpp"
#include "models/rng.hpp"
#include "models/workload/workload.hpp"

namespace twinsched::calib {
namespace {

class ring_actor final : public behavior {
 public:
  ring_actor(const std::vector<actor_ref>& all, std::uint32_t index) : all_(all), index_(index) {}
  void receive(context& ctx, const message& m) override {
    acc_ += splitmix64(m.a ^ (m.b << 32) ^ index_);
    if (m.b == 0) return;
    ctx.send(all_[next(index_, all_.size())], message{m.a, m.b - 1});
  }
  static std::uint32_t next(std::uint32_t i, std::size_t n) { return std::uint32_t((5 * std::uint64_t(i) + 1) % n); }
  std::uint64_t acc() const { return acc_; }

 private:
  const std::vector<actor_ref>& all_;
  std::uint32_t index_;
  std::uint64_t acc_ = 0;
};

class ring_workload final : public workload {
 public:
  ring_workload(const workload_params& p, std::uint64_t)
      : actors_(std::uint32_t(p.integer("actors"))), tokens_(std::uint64_t(p.integer("tokens"))),
        hops_(std::uint64_t(p.integer("hops"))) {}
  void start(context& ctx) override {
    for (std::uint32_t i = 0; i < actors_; ++i) {
      auto made = ctx.spawn_as<ring_actor>({}, refs_, i);
      behaviors_.push_back(&made.behavior);
      refs_.push_back(made);
    }
    for (std::uint64_t t = 0; t < tokens_; ++t) ctx.send(refs_[first(t)], message{t, hops_});
  }
  std::uint64_t checksum() const override { return sum_of_acc(behaviors_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t t = 0; t < tokens_; ++t) {
      std::uint32_t at = first(t);
      for (std::uint64_t h = hops_;; --h) {
        s += splitmix64(t ^ (h << 32) ^ at);
        if (h == 0) break;
        at = ring_actor::next(at, actors_);
      }
    }
    return s;
  }
  std::uint64_t expected_messages() const override { return tokens_ * (hops_ + 1); }

 private:
  std::uint32_t first(std::uint64_t t) const { return std::uint32_t(t * actors_ / tokens_) % actors_; }
  std::uint32_t actors_;
  std::uint64_t tokens_, hops_;
  std::vector<actor_ref> refs_;
  std::vector<ring_actor*> behaviors_;
};

}  // namespace

void register_ring() {
  if (find_workload(ring_name)) return;
  register_workload({ring_name,
                     "twinsched calibrate's own workload: tokens hop around a ring (actor i to 5i+1 mod actors)",
                     {{"actors", std::int64_t(256), "actors in the ring (a power of two)"},
                      {"tokens", std::int64_t(16), "tokens travelling at once"},
                      {"hops", std::int64_t(1000), "hops per token"}},
                     [](const workload_params& p, std::uint64_t seed) { return std::make_unique<ring_workload>(p, seed); }});
}

scenario ring_scenario(const ring_shape& shape, std::int64_t messages) {
  scenario s;
  s.name = ring_name;
  s.workload = ring_name;
  s.workload_params = {{"actors", shape.actors}, {"tokens", shape.tokens}, {"hops", std::max<std::int64_t>(1, messages / shape.tokens - 1)}};
  s.sched.policy = "stealing";
  s.sched.workers = 1;
  s.sched.burst = 16;
  s.sched.idle.strategy = "park";
  return s;
}

}  // namespace twinsched::calib
