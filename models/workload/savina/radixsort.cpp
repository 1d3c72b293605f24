// Savina's RadixSort: a source streams n random values through a pipeline of sort actors, one per
// bit from the lowest up, to a validation actor. A sort actor forwards a value whose bit is clear
// at once and keeps the others until it has seen all n, then forwards those in arrival order: a
// stable partition per bit, so (with each sender's messages delivered in order) the values reach
// the validator sorted. Messages: the start, and each value once per sort stage and once to the
// validator.
#include <cstdio>
#include <vector>

#include "../../config.hpp"
#include "radixsort.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_radixsort_impl {
namespace {
using namespace savina_radixsort;

/// What a value adds to the sum of the actor at `stage` (0 the first sort actor, stages() the
/// validator): whichever order the values come in.
inline std::uint64_t value_at(std::uint64_t v, std::uint64_t stage) { return splitmix64(v ^ stage << 58 ^ stage); }

struct setup {
  std::uint64_t n;
  std::vector<std::uint64_t> values;
};

class source final : public behavior {
 public:
  source(const setup& s, actor_ref first) : s_(s), first_(first) {}
  void receive(context& ctx, const message&) override {
    for (std::uint64_t v : s_.values) ctx.send(first_, message{v});
    ctx.stop();
  }

 private:
  const setup& s_;
  actor_ref first_;
};

class sort_stage final : public behavior {
 public:
  sort_stage(const setup& s, std::uint64_t radix, std::uint64_t stage, actor_ref next)
      : s_(s), radix_(radix), stage_(stage), next_(next) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value_at(m.a, stage_);
    if (m.a & radix_)
      kept_.push_back(m.a);
    else
      ctx.send(next_, message{m.a});
    if (++seen_ == s_.n) {
      for (std::uint64_t v : kept_) ctx.send(next_, message{v});
      kept_ = {};
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }

 private:
  const setup& s_;
  std::uint64_t radix_, stage_;
  actor_ref next_;
  std::vector<std::uint64_t> kept_;
  std::uint64_t seen_ = 0, acc_ = 0;
};

class validator final : public behavior {
 public:
  validator(std::uint64_t stage, std::uint64_t n) : stage_(stage) { out_.reserve(n); }
  void receive(context&, const message& m) override {
    acc_ += value_at(m.a, stage_);
    out_.push_back(m.a);
  }
  std::uint64_t acc() const { return acc_; }
  const std::vector<std::uint64_t>& out() const { return out_; }

 private:
  std::uint64_t stage_;
  std::vector<std::uint64_t> out_;
  std::uint64_t acc_ = 0;
};

class radixsort final : public savina_workload {
 public:
  radixsort(const workload_params& p, std::uint64_t seed) : m_(std::uint64_t(p.integer("m"))), seed_(seed) {
    // Savina's radix is m/2 halved: a single bit only when m is a power of two.
    if (!std::has_single_bit(m_) || m_ < 2) throw config_error("savina-radixsort: m must be a power of two, at least 2");
    s_.n = std::uint64_t(p.integer("n"));
  }

  void start(context& ctx) override {
    s_.values = input(s_.n, m_, seed_);
    const std::uint32_t k = stages(m_);
    auto v = ctx.spawn_as<validator>({.name = "radixsort-validator"}, std::uint64_t(k), s_.n);
    validator_ = &v.behavior;
    // Built from the validator back, as Savina does: the highest bit last.
    actor_ref next = v;
    for (std::uint32_t i = 0; i < k; ++i) {
      const std::uint64_t stage = k - 1 - i;
      auto a = ctx.spawn_as<sort_stage>({}, s_, std::uint64_t(1) << stage, stage, next);
      stages_.push_back(&a.behavior);
      next = a;
    }
    auto src = ctx.spawn_as<source>({.name = "radixsort-source"}, s_, next);
    ctx.send(src, message{});
  }

  std::uint64_t checksum() const override { return validator_->acc() + sum_of_acc(stages_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = 0;
    for (std::uint64_t v : input(s_.n, m_, seed_))
      for (std::uint64_t stage = 0; stage <= stages(m_); ++stage) acc += value_at(v, stage);
    return acc;
  }
  std::uint64_t expected_messages() const override { return 1 + (stages(m_) + 1) * s_.n; }
  bool result_ok() const override { return sorted_permutation_ok(validator_->out(), input(s_.n, m_, seed_)); }
  /// The source sends every value at once; each value is in one mailbox or buffer at a time.
  footprint peak() const override { return {stages(m_) + 2.0, double(s_.n), 24.0 * double(s_.n)}; }
  std::string detail() const override {
    const auto& out = validator_->out();
    double sum = 0;
    for (std::uint64_t v : out) sum += double(v);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%zu values through %u stages, elements sum %.6g", out.size(), stages(m_), sum);
    return buf;
  }

 private:
  std::uint64_t m_, seed_;
  setup s_;
  validator* validator_ = nullptr;
  std::vector<sort_stage*> stages_;
};

}  // namespace
}  // namespace savina_radixsort_impl

workload_info savina_radixsort_workload() {
  using namespace savina_radixsort_impl;
  return {"savina-radixsort",
          "Savina RadixSort: random values stream through a pipeline of one sort actor per bit to a validator",
          {{"n", std::int64_t(100000), "values sorted (Savina's N)", 1, 1e9},
           {"m", std::int64_t(1) << 60, "values are below this power of two; one sort actor per bit of m/2 (Savina's M)",
            2}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<radixsort>(p, seed); }};
}

}  // namespace twinsched
