// Savina's CigSmokers: an arbiter runs `rounds` rounds; each round it wakes one of `smokers`
// smokers chosen at random (StartSmoking, with a random smoking time), and the smoker answers at
// once (StartedSmoking) and then smokes: CPU work of up to 1009 busy-wait iterations, `wait_ns`
// each. The arbiter starts the next round on the answer, so smoking overlaps the next rounds.
// Measures a central actor whose requests fan out to random workers doing work after replying.
#include <cstdio>

#include "cigsmok.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_cigsmok_impl {
namespace {
using namespace savina_cigsmok;

class smoker final : public behavior {
 public:
  smoker(double wait_ns, std::uint64_t id) : id_(id), wait_ns_(wait_ns) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == exit) {
      acc_ += print(exit, id_);
      ++exited_;
      ctx.stop();
      return;
    }
    ctx.send(actor_ref(m.sender), message{m.a, 0, started_smoking});
    ctx.burn_ns(std::uint64_t(double(m.b) * wait_ns_));
    acc_ += round_print(m.a, {std::uint32_t(id_), m.b});
    ++smoked_;
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t smoked_ = 0, exited_ = 0;

 private:
  std::uint64_t id_;
  double wait_ns_;
  std::uint64_t acc_ = 0;
};

class arbiter final : public behavior {
 public:
  arbiter(std::uint64_t rounds, std::uint64_t seed, std::vector<actor_ref> smokers)
      : rounds_(rounds), rng_(arbiter_rng(seed)), smokers_(std::move(smokers)) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == started_smoking) {
      acc_ += print(started_smoking, m.a);
      if (++done_ >= rounds_) {
        for (actor_ref s : smokers_) ctx.send(s, message{0, 0, exit});
        ctx.stop();
        return;
      }
    }
    const choice c = next_choice(rng_, std::uint32_t(smokers_.size()));
    ctx.send(smokers_[c.smoker], message{done_, c.iterations, start_smoking});
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t done_ = 0;

 private:
  std::uint64_t rounds_;
  rng rng_;
  std::vector<actor_ref> smokers_;
  std::uint64_t acc_ = 0;
};

class cigsmok final : public workload {
 public:
  cigsmok(const workload_params& p, std::uint64_t seed)
      : rounds_(std::uint64_t(p.integer("rounds"))), smokers_(std::uint32_t(p.integer("smokers"))),
        wait_ns_(p.real("wait_ns")), seed_(seed) {}

  void start(context& ctx) override {
    std::vector<actor_ref> refs;
    savina::spawn_each(ctx, smokers_, smoker_list_, refs, wait_ns_);
    auto a = ctx.spawn_as<arbiter>({.name = "arbiter"}, rounds_, seed_, refs);
    arbiter_ = &a.behavior;
    ctx.send(a, message{0, 0, arbiter_start});
  }

  std::uint64_t checksum() const override { return sum_of_acc(smoker_list_) + arbiter_->acc(); }
  std::uint64_t reference_checksum() const override {
    return savina_cigsmok::reference_checksum(rounds_, smokers_, seed_);
  }
  std::uint64_t expected_messages() const override { return messages(rounds_, smokers_); }
  footprint peak() const override { return {double(smokers_) + 1, double(smokers_) + 1, 48.0 * smokers_}; }
  bool result_ok() const override {
    std::vector<std::uint64_t> by;
    std::uint64_t exited = 0;
    for (const smoker* s : smoker_list_) by.push_back(s->smoked_), exited += s->exited_;
    return savina_cigsmok::result_ok(rounds_, smoked(rounds_, smokers_, seed_), arbiter_->done_, by, exited);
  }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llu rounds smoked", static_cast<unsigned long long>(arbiter_->done_));
    return buf;
  }

 private:
  std::uint64_t rounds_;
  std::uint32_t smokers_;
  double wait_ns_;
  std::uint64_t seed_;
  arbiter* arbiter_ = nullptr;
  std::vector<smoker*> smoker_list_;
};

}  // namespace
}  // namespace savina_cigsmok_impl

workload_info savina_cigsmok_workload() {
  using namespace savina_cigsmok_impl;
  return {"savina-cigsmok",
          "Savina CigSmokers: an arbiter wakes a random smoker each round; the smoker answers, then smokes",
          {{"rounds", std::int64_t(1000), "rounds (Savina's R)"},
           {"smokers", std::int64_t(200), "smokers (Savina's S)", 1, 4294967295.0},
           {"wait_ns", 10.0, "CPU ns per busy-wait iteration of smoking (Savina's loop calls Math.random() once each)",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<cigsmok>(p, seed); }};
}

}  // namespace twinsched
