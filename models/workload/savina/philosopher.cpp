// Savina's Philosophers: `philosophers` philosophers around a table, a fork between each two,
// and an arbitrator that owns the forks. A hungry philosopher asks the arbitrator, who grants
// both forks (Eat) if both are free and otherwise refuses (Denied), and the philosopher asks
// again at once. After eating it returns the forks (Done) and, until it has eaten `rounds`
// times, starts over. Measures one busy actor answering requests whose retries depend on timing.
#include <cstdio>

#include "philosopher.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_philosopher_impl {
namespace {
using namespace savina_philosopher;

class philosopher final : public behavior {
 public:
  philosopher(std::uint64_t rounds, actor_ref arbitrator, std::uint64_t id)
      : id_(id), rounds_(rounds), arbitrator_(arbitrator) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case start:
        acc_ += print(start, id_, eaten_);
        ctx.send(arbitrator_, message{id_, eaten_, hungry});
        break;
      case denied:
        ++denied_;
        ctx.send(arbitrator_, message{id_, eaten_, hungry});
        break;
      default:  // eat
        acc_ += print(eat, id_, eaten_);
        ctx.send(arbitrator_, message{id_, eaten_, done});
        if (++eaten_ < rounds_) {
          ctx.send(ctx.self(), message{0, 0, start});
        } else {
          ctx.send(arbitrator_, message{id_, 0, exit});
          ctx.stop();
        }
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t eaten_ = 0, denied_ = 0;

 private:
  std::uint64_t id_, rounds_, acc_ = 0;
  actor_ref arbitrator_;
};

class arbitrator final : public behavior {
 public:
  explicit arbitrator(std::uint64_t forks) : holder_(forks, free) {}
  void receive(context& ctx, const message& m) override {
    const std::uint64_t id = m.a, left = id, right = (id + 1) % holder_.size();
    switch (m.tag) {
      case hungry:
        if (holder_[left] != free || holder_[right] != free) {
          ++denials_;
          ctx.send(actor_ref(m.sender), message{0, 0, denied});
        } else {
          holder_[left] = holder_[right] = id;
          acc_ += print(eat, id, m.b);
          ctx.send(actor_ref(m.sender), message{0, 0, eat});
        }
        break;
      case done:
        acc_ += print(done, id, m.b);
        bad_releases_ += (holder_[left] != id) + (holder_[right] != id);
        holder_[left] = holder_[right] = free;
        break;
      default:  // exit
        acc_ += print(exit, id, 0);
        if (++exited_ == holder_.size()) ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t held() const {
    std::uint64_t n = 0;
    for (std::uint64_t h : holder_) n += h != free;
    return n;
  }
  std::uint64_t denials_ = 0, bad_releases_ = 0, exited_ = 0;

 private:
  static constexpr std::uint64_t free = ~0ull;
  std::vector<std::uint64_t> holder_;  // the philosopher holding each fork
  std::uint64_t acc_ = 0;
};

class philosophers final : public savina_workload {
 public:
  explicit philosophers(const workload_params& p)
      : n_(std::uint64_t(p.integer("philosophers"))), rounds_(std::uint64_t(p.integer("rounds"))) {}

  void start(context& ctx) override {
    auto a = ctx.spawn_as<arbitrator>({.name = "arbitrator", .state_bytes = 256}, n_);
    arbitrator_ = &a.behavior;
    savina::spawn_workers(ctx, n_, philosophers_, message{0, 0, savina_philosopher::start}, rounds_, a.ref);
  }

  std::uint64_t checksum() const override { return sum_of_acc(philosophers_) + arbitrator_->acc(); }
  std::uint64_t reference_checksum() const override { return savina_philosopher::reference_checksum(n_, rounds_); }
  /// The denials are the interleaving's: counted where they are decided, at the arbitrator.
  std::uint64_t expected_messages() const override {
    return messages(n_, rounds_, arbitrator_ ? arbitrator_->denials_ : 0);
  }
  footprint peak() const override { return {double(n_) + 1, 2.0 * double(n_), 48.0 * double(n_)}; }
  bool result_ok() const override { return savina_philosopher::result_ok(n_, rounds_, recorded()); }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "retries %llu", static_cast<unsigned long long>(arbitrator_->denials_));
    return buf;
  }

 private:
  outcome recorded() const {
    outcome o;
    for (const philosopher* ph : philosophers_) {
      o.eaten.push_back(ph->eaten_);
      o.denials_received += ph->denied_;
    }
    o.denials_sent = arbitrator_->denials_;
    o.bad_releases = arbitrator_->bad_releases_;
    o.forks_held = arbitrator_->held();
    o.exited = arbitrator_->exited_;
    return o;
  }

  std::uint64_t n_, rounds_;
  arbitrator* arbitrator_ = nullptr;
  std::vector<philosopher*> philosophers_;
};

}  // namespace
}  // namespace savina_philosopher_impl

workload_info savina_philosopher_workload() {
  using namespace savina_philosopher_impl;
  return {"savina-philosopher",
          "Savina Philosophers: philosophers ask an arbitrator for their two forks and retry when denied",
          {{"philosophers", std::int64_t(20), "philosophers and forks (Savina's N)", 2},
           {"rounds", std::int64_t(10000), "times each philosopher eats (Savina's M)"}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<philosophers>(p); }};
}

}  // namespace twinsched
