// Workload `pi`: a master hands out Leibniz-series jobs round robin to worker actors and sums the replies.
#include <bit>
#include <cmath>
#include <cstdio>
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace pi_impl {
namespace {

/// 4 * sum_{k=first}^{first+count-1} (-1)^k / (2k+1)
double leibniz(std::uint64_t first, std::uint64_t count) {
  double s = 0;
  for (std::uint64_t k = first; k < first + count; ++k) s += (k & 1 ? -4.0 : 4.0) / double(2 * k + 1);
  return s;
}

/// Order-independent fingerprint of one job's reply.
inline std::uint64_t reply_value(std::uint64_t job, double partial) {
  return splitmix64(job) + std::bit_cast<std::uint64_t>(partial);
}

struct pi_setup {
  std::uint64_t jobs, terms;
  double term_ns;
  std::vector<actor_ref> workers;
};

class pi_worker final : public behavior {
 public:
  explicit pi_worker(const pi_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    double partial = leibniz(m.a * s_.terms, s_.terms);
    ctx.did_work_ns(std::uint64_t(double(s_.terms) * s_.term_ns));
    ctx.send(actor_ref(m.sender), message{m.a, std::bit_cast<std::uint64_t>(partial)});
  }

 private:
  const pi_setup& s_;
};

class pi_master final : public behavior {
 public:
  explicit pi_master(const pi_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == start_tag) {
      for (std::uint64_t j = 0; j < s_.jobs; ++j) ctx.send(s_.workers[j % s_.workers.size()], message{j});
      return;
    }
    double partial = std::bit_cast<double>(m.b);
    sum_ += partial;
    acc_ += reply_value(m.a, partial);
    ++replies_;
  }
  static constexpr std::uint32_t start_tag = 1;
  double sum_ = 0;
  std::uint64_t acc_ = 0, replies_ = 0;

 private:
  const pi_setup& s_;
};

class pi final : public workload {
 public:
  explicit pi(const workload_params& p)
      : s_{std::uint64_t(p.integer("jobs")), std::uint64_t(p.integer("terms")), p.real("term_ns"), {}},
        worker_count_(std::uint32_t(p.integer("workers"))) {}

  void start(context& ctx) override {
    auto master = ctx.spawn_as<pi_master>({.name = "pi-master"}, s_);
    master_ = &master.behavior;
    // The workers are equals: a job's reply depends only on the job, not on who computed it,
    // so donation may move queued jobs between them (the checksum sums per job).
    for (std::uint32_t i = 0; i < worker_count_; ++i)
      s_.workers.push_back(ctx.spawn_as<pi_worker>({.group = 1}, s_));
    ctx.send(master, message{0, 0, pi_master::start_tag});
  }

  bool has_groups() const override { return true; }
  std::uint64_t checksum() const override { return master_->acc_; }
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = 0;
    for (std::uint64_t j = 0; j < s_.jobs; ++j) acc += reply_value(j, leibniz(j * s_.terms, s_.terms));
    return acc;
  }
  std::uint64_t expected_messages() const override { return 2 * s_.jobs + 1; }
  /// The master sends every job at once.
  footprint peak() const override { return {worker_count_ + 1.0, double(s_.jobs), 8.0 * worker_count_}; }
  /// All replies arrived and the sum is within the alternating series' truncation bound
  /// 4/(2N+1) of pi (N terms in all); with the default 10^8 terms that is 2e-8, well inside 1e-6.
  bool result_ok() const override {
    double n = double(s_.jobs) * double(s_.terms);
    return master_->replies_ == s_.jobs && std::fabs(master_->sum_ - M_PI) <= 4.0 / (2.0 * n + 1.0) + 1e-12;
  }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "pi = %.12f (error %.3g)", master_->sum_, std::fabs(master_->sum_ - M_PI));
    return buf;
  }

 private:
  pi_setup s_;
  std::uint32_t worker_count_;
  pi_master* master_ = nullptr;
};

}  // namespace
}  // namespace pi_impl

workload_info pi_workload() {
  using namespace pi_impl;
  return {"pi",
          "a master sends Leibniz-series jobs round robin to worker actors and sums the replies",
          {{"jobs", std::int64_t(100), "jobs the master hands out"},
           {"terms", std::int64_t(1000000), "series terms per job"},
           {"workers", std::int64_t(8), "worker actors (not threads)", 1, 4294967295.0},
           {"term_ns", 1.0,
            "simulation only: modeled cost of one term, ns (unset: the machine model's calibrated leibniz_term, else 1)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<pi>(p); },
          {{"leibniz_term", "term_ns",
            [](std::uint64_t units) { return std::bit_cast<std::uint64_t>(leibniz(units, units)); }}}};
}

}  // namespace twinsched
