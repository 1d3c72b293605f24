// Savina's PiPrecision: pi to `precision` decimal places by the Bailey-Borwein-Plouffe series. A
// master hands out terms to workers, the first min(precision, 10 w) round robin and then one more
// to each worker that returns a result, until a term falls below 10^-precision; when every term
// asked for is back it stops the workers, which each answer with a stop. A term's value travels
// as a pointer to its limbs, freed by the master once added.
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

#include "../../rng.hpp"
#include "piprecision.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_piprecision_impl {
namespace {
using namespace savina_piprecision;

enum tag : std::uint32_t { start_tag = 1, work_tag, result_tag, stop_tag };

inline std::uint64_t message_value(std::uint32_t t, std::uint64_t x) { return splitmix64(std::uint64_t(t) << 56 ^ x); }

struct setup {
  std::uint32_t workers;
  double limb_ns;
  std::optional<scale_constants> c;
  actor_ref master;
  std::vector<actor_ref> refs;
};

class worker final : public behavior {
 public:
  worker(const setup& s, std::uint32_t id) : s_(s), id_(id) {}
  void receive(context& ctx, const message& m) override {
    acc_ += message_value(m.tag, m.a);
    if (m.tag == stop_tag) {
      ctx.send(s_.master, message{id_, 0, stop_tag});
      ctx.stop();
      return;
    }
    auto* term = new limbs(bbp_term(*s_.c, std::uint32_t(m.a)));
    ctx.did_work_ns(std::uint64_t(double(s_.c->units_per_term()) * s_.limb_ns));
    ctx.send(s_.master, message{std::uint64_t(term), m.a | std::uint64_t(id_) << 32, result_tag});
  }
  std::uint64_t acc_ = 0;

 private:
  const setup& s_;
  std::uint32_t id_;
};

/// Savina's master, acting on the results in term order: one that comes early waits for the
/// terms before it. (Savina's acts on them as they arrive, so how many terms it asks for before it
/// sees one below the tolerance depends on the interleaving; in term order it is always the
/// first min(precision, 10 w) and one per term before the first below the tolerance.)
class master final : public behavior {
 public:
  explicit master(const setup& s) : sum_(s.c->one.size(), 0), s_(s) {}
  ~master() override {
    for (auto& r : early_) delete r.term;
  }
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case start_tag:
        acc_ += message_value(m.tag, 0);
        for (std::uint32_t t = 0; t < std::min(s_.c->scale, 10 * s_.workers); ++t) request(ctx, t % s_.workers);
        break;
      case result_tag: {
        const std::uint32_t term = std::uint32_t(m.b);
        acc_ += message_value(m.tag, term);
        if (term >= early_.size()) early_.resize(term + 1);
        early_[term] = {reinterpret_cast<limbs*>(m.a), std::uint32_t(m.b >> 32)};
        while (received_ < early_.size() && early_[received_].term) take(ctx, early_[received_++]);
        break;
      }
      default:
        acc_ += message_value(m.tag, m.a);
        ++stopped_;
    }
  }
  std::uint64_t acc_ = 0;
  std::uint32_t requested_ = 0, received_ = 0, stopped_ = 0;
  limbs sum_;

 private:
  struct result {
    limbs* term = nullptr;
    std::uint32_t worker = 0;
  };
  void request(context& ctx, std::uint32_t worker) { ctx.send(s_.refs[worker], message{requested_++, 0, work_tag}); }
  void take(context& ctx, result& r) {
    add(sum_, *r.term);
    stop_requests_ |= below_tolerance(*r.term);
    delete std::exchange(r.term, nullptr);
    if (!stop_requests_) request(ctx, r.worker);
    if (received_ == requested_)
      for (std::uint32_t w = 0; w < s_.workers; ++w) ctx.send(s_.refs[w], message{0, 0, stop_tag});
  }
  const setup& s_;
  std::vector<result> early_;
  bool stop_requests_ = false;
};

/// The sequential reference: the terms the master asks for, and their sum. At namespace scope:
/// clang finds a nested struct with member initializers not default-constructible inside
/// its enclosing class, so std::optional::emplace() would not compile there.
struct reference_sum {
  std::uint32_t terms = 0;
  limbs sum;
};

class piprecision final : public savina_workload {
 public:
  explicit piprecision(const workload_params& p) : precision_(std::uint32_t(p.integer("precision"))) {
    s_.workers = std::uint32_t(p.integer("num_workers"));
    s_.limb_ns = p.real("limb_ns");
  }

  void start(context& ctx) override {
    s_.c.emplace(precision_);
    auto m = ctx.spawn_as<master>({.name = "piprecision-master"}, s_);
    master_ = &m.behavior;
    s_.master = m;
    savina::spawn_each(ctx, s_.workers, workers_, s_.refs, s_);
    ctx.send(m, message{0, 0, start_tag});
  }

  std::uint64_t checksum() const override {
    std::uint64_t acc = master_->acc_;
    for (const worker* w : workers_) acc += w->acc_;
    return acc;
  }
  /// The start; each term asked for, at a worker and back at the master; a stop to each worker
  /// and back.
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = message_value(start_tag, 0);
    for (std::uint32_t t = 0; t < reference().terms; ++t) acc += message_value(work_tag, t) + message_value(result_tag, t);
    for (std::uint32_t w = 0; w < s_.workers; ++w) acc += message_value(stop_tag, 0) + message_value(stop_tag, w);
    return acc;
  }
  std::uint64_t expected_messages() const override { return 1 + 2 * std::uint64_t(reference().terms) + 2 * s_.workers; }
  /// Every term came back, the sum is the same terms added sequentially, and it is pi (Machin's
  /// formula) to all but the last six places.
  bool result_ok() const override {
    return master_->received_ == reference().terms && master_->stopped_ == s_.workers &&
           master_->sum_ == reference().sum && pi_ok(master_->sum_, precision_);
  }
  footprint peak() const override {
    const double terms = 10.0 * s_.workers + 1.25 * precision_;
    return {s_.workers + 1.0, terms, terms * (0.42 * precision_ + 32)};
  }
  std::string detail() const override {
    return "pi = " + decimal(master_->sum_, precision_, 40) + "... (" + std::to_string(master_->received_) + " terms)";
  }

 private:
  /// The terms the master asks for, added one after another, once.
  const reference_sum& reference() const {
    if (!ref_) {
      const scale_constants c(precision_);
      ref_.emplace();
      ref_->terms = terms_requested(c, s_.workers);
      ref_->sum.assign(c.one.size(), 0);
      for (std::uint32_t k = 0; k < ref_->terms; ++k) add(ref_->sum, bbp_term(c, k));
    }
    return *ref_;
  }
  std::uint32_t precision_;
  setup s_{};
  master* master_ = nullptr;
  std::vector<worker*> workers_;
  mutable std::optional<reference_sum> ref_;
};

}  // namespace
}  // namespace savina_piprecision_impl

workload_info savina_piprecision_workload() {
  using namespace savina_piprecision_impl;
  return {"savina-piprecision",
          "Savina PiPrecision: workers compute Bailey-Borwein-Plouffe terms of pi to thousands of places for a master",
          {{"num_workers", std::int64_t(20), "worker actors (Savina's NUM_WORKERS)", 1, 1e5},
           {"precision", std::int64_t(5000), "decimal places (Savina's PRECISION)", 1, 1e6},
           {"limb_ns", 7.1,
            "simulation only: modeled ns per limb of a term's four long divisions, 32-bit limbs (unset: the "
            "machine's calibrated savina_piprecision_limb, else 7.1: the default run's 4146 terms in order at -O2 on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<piprecision>(p); },
          {{"savina_piprecision_limb", "limb_ns", [](std::uint64_t units) {
              static const scale_constants c(5000);
              std::uint64_t kept = 0;
              for (std::uint64_t i = 0; i < units / c.units_per_term(); ++i) kept += bbp_term(c, std::uint32_t(i * 97 % 4146))[0];
              return kept;
            }}}};
}

}  // namespace twinsched
