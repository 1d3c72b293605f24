// Workload `pool`: a producer sends bursts through a round-robin router to a group of equal actors, one in eight of them slow.
//
// The members are spawned as a group of equals (spawn_options::group): any member may
// process any member's message, which is what lets `donation` drain a slow member's
// backlog on the others. Each member replies to the producer; the producer starts the next
// burst when every reply of the current one is in, so a run is as long as its slowest
// bursts.
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace pool_impl {
namespace {

constexpr std::uint32_t group_id = 1;
constexpr std::uint32_t go_tag = 1, job_tag = 2, done_tag = 3;

struct pool_setup {
  std::uint64_t bursts = 0, burst_size = 0, cost_ns = 0, seed = 0;
  actor_ref producer, router;
  std::vector<actor_ref> members;
};

/// A job's value: depends on the job only, never on which member ran it.
inline std::uint64_t job_value(std::uint64_t seed, std::uint64_t job) { return splitmix64(seed * 0x100000001b3ull ^ job); }

class member final : public behavior {
 public:
  member(const pool_setup& s, std::uint64_t cost_ns) : s_(s), cost_ns_(cost_ns) {}
  void receive(context& ctx, const message& m) override {
    acc_ += job_value(s_.seed, m.a);
    ++jobs_;
    if (cost_ns_) ctx.burn_ns(cost_ns_);  // this member's speed, whoever's job it is
    ctx.send(s_.producer, message{m.a, 0, done_tag});
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t jobs() const { return jobs_; }

 private:
  const pool_setup& s_;
  std::uint64_t cost_ns_;
  std::uint64_t acc_ = 0, jobs_ = 0;
};

class router final : public behavior {
 public:
  explicit router(const pool_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    ctx.send(s_.members[next_++ % s_.members.size()], message{m.a, 0, job_tag});
  }

 private:
  const pool_setup& s_;
  std::uint64_t next_ = 0;
};

class pool_producer final : public behavior {
 public:
  explicit pool_producer(const pool_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == go_tag) {
      for (std::uint64_t j = 0; j < s_.burst_size; ++j) ctx.send(s_.router, message{burst_ * s_.burst_size + j, 0, job_tag});
      return;
    }
    if (++replies_ < s_.burst_size) return;
    replies_ = 0;
    if (++burst_ < s_.bursts) ctx.send(ctx.self(), message{0, 0, go_tag});
  }
  std::uint64_t bursts_done() const { return burst_; }

 private:
  const pool_setup& s_;
  std::uint64_t burst_ = 0, replies_ = 0;
};

class pool final : public workload {
 public:
  pool(const workload_params& p, std::uint64_t seed)
      : members_(std::uint32_t(p.integer("members"))), slow_every_(std::uint32_t(p.integer("slow_every"))),
        slow_factor_(std::uint64_t(p.integer("slow_factor"))) {
    s_.bursts = std::uint64_t(p.integer("bursts"));
    s_.burst_size = std::uint64_t(p.integer("burst_size"));
    s_.cost_ns = std::uint64_t(p.integer("cost_ns"));
    s_.seed = seed;
  }

  void start(context& ctx) override {
    auto made = ctx.spawn_as<pool_producer>({.name = "pool-producer"}, s_);
    producer_ = &made.behavior;
    s_.producer = made;
    s_.router = ctx.spawn_as<router>({.name = "pool-router"}, s_);
    for (std::uint32_t i = 0; i < members_; ++i) {
      bool slow = i % slow_every_ == 0;
      auto m = ctx.spawn_as<member>({.name = slow ? "pool-member-slow" : "pool-member", .group = group_id}, s_,
                                    slow ? s_.cost_ns * slow_factor_ : s_.cost_ns);
      behaviors_.push_back(&m.behavior);
      s_.members.push_back(m);
    }
    ctx.send(s_.producer, message{0, 0, go_tag});
  }

  std::uint64_t checksum() const override { return sum_of_acc(behaviors_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = 0;
    for (std::uint64_t j = 0; j < s_.bursts * s_.burst_size; ++j) s += job_value(s_.seed, j);
    return s;
  }
  std::uint64_t expected_messages() const override { return s_.bursts + 3 * s_.bursts * s_.burst_size; }
  bool result_ok() const override { return producer_->bursts_done() == s_.bursts; }
  /// A burst is sent at once (router, then members); producer, router, members.
  footprint peak() const override { return {members_ + 2.0, 2.0 * double(s_.burst_size), 16.0 * members_}; }
  bool has_groups() const override { return true; }

 private:
  std::uint32_t members_, slow_every_;
  std::uint64_t slow_factor_;
  pool_setup s_;
  pool_producer* producer_ = nullptr;
  std::vector<member*> behaviors_;
};

}  // namespace
}  // namespace pool_impl

workload_info pool_workload() {
  using namespace pool_impl;
  return {"pool",
          "bursts routed round robin to a group of equal actors, one in eight slow: a slow member's backlog",
          {{"members", std::int64_t(8), "actors in the group of equals", 1, 4294967295.0},
           {"bursts", std::int64_t(20), "bursts the producer sends, each after the previous one is done"},
           {"burst_size", std::int64_t(2000), "jobs per burst"},
           {"cost_ns", std::int64_t(2000), "CPU work per job on a normal member, in nanoseconds", 0},
           {"slow_every", std::int64_t(8), "member i is slow when i % slow_every == 0", 1, 4294967295.0},
           {"slow_factor", std::int64_t(10), "a slow member's cost per job, in multiples of cost_ns"}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<pool>(p, seed); }};
}

}  // namespace twinsched
