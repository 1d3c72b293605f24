// Savina's RecMatMul (recursive matrix multiplication): a worker given a block above the threshold
// splits it into the eight half-size products and sends them to the master, which forwards each to
// worker (srC + scC) % workers, so every product into one block of C runs on one actor; a worker
// given a small block multiplies it into C. Each work message is answered by a done message; when
// all are done the master stops the workers, which each answer with a stop. The matrices are the
// run's (Savina's are static); messages carry block coordinates, as Savina's do.
#include <cstdio>
#include <vector>

#include "../../config.hpp"
#include "../../rng.hpp"
#include "recmatmul.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_recmatmul_impl {
namespace {
using namespace savina_recmatmul;

enum tag : std::uint32_t { start_tag = 1, work_tag, done_tag, stop_tag };

/// What a message adds to its receiver's sum: its words and kind, whoever runs it.
inline std::uint64_t message_value(std::uint64_t a, std::uint64_t b, std::uint32_t t) {
  return splitmix64(a ^ splitmix64(b ^ std::uint64_t(t) << 56));
}

struct setup {
  std::uint64_t n, threshold;
  double madd_ns;
  std::vector<double> a, b, c;
  actor_ref master;
  std::vector<actor_ref> workers;
};

class worker final : public behavior {
 public:
  explicit worker(setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    acc_ += message_value(m.a, m.b, m.tag);
    if (m.tag == stop_tag) {
      ctx.send(s_.master, message{m.a, 0, stop_tag});
      ctx.stop();
      return;
    }
    const block w = unpack(m.a, m.b);
    if (num_blocks(s_.n, w.depth) > s_.threshold) {
      block parts[8];
      split(w, parts);
      for (const block& p : parts) ctx.send(s_.master, message{word_a(p), word_b(p), work_tag});
    } else {
      multiply(s_.a.data(), s_.b.data(), s_.c.data(), s_.n, w);
      ctx.did_work_ns(std::uint64_t(double(w.dim) * w.dim * w.dim * s_.madd_ns));
    }
    ctx.send(s_.master, message{m.a, m.b, done_tag});
  }
  std::uint64_t acc() const { return acc_; }

 private:
  setup& s_;
  std::uint64_t acc_ = 0;
};

class master final : public behavior {
 public:
  explicit master(const setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    acc_ += message_value(m.a, m.b, m.tag);
    switch (m.tag) {
      case start_tag: {
        const block root{0, 0, 0, 0, 0, 0, std::uint32_t(s_.n), 0};
        send_work(ctx, word_a(root), word_b(root));
        break;
      }
      case work_tag: send_work(ctx, m.a, m.b); break;
      case done_tag:
        if (++completed_ == sent_)
          for (std::uint64_t i = 0; i < s_.workers.size(); ++i) ctx.send(s_.workers[i], message{i, 0, stop_tag});
        break;
      default: ++stopped_; break;
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t sent_ = 0, completed_ = 0, stopped_ = 0;

 private:
  void send_work(context& ctx, std::uint64_t a, std::uint64_t b) {
    const block w = unpack(a, b);
    ctx.send(s_.workers[(w.sr_c + w.sc_c) % s_.workers.size()], message{a, b, work_tag});
    ++sent_;
  }
  const setup& s_;
  std::uint64_t acc_ = 0;
};

class recmatmul final : public savina_workload {
 public:
  explicit recmatmul(const workload_params& p)
      : s_{std::uint64_t(p.integer("data_length")), std::uint64_t(p.integer("block_threshold")),
           p.real("madd_ns"), {}, {}, {}, {}, {}},
        worker_count_(std::uint64_t(p.integer("workers"))) {
    // Savina halves a block's side at each level; any other side loses rows and fails the check.
    if ((s_.n & (s_.n - 1)) != 0) throw config_error("savina-recmatmul: data_length must be a power of two");
  }

  void start(context& ctx) override {
    fill_inputs(s_.a, s_.b, s_.n);
    s_.c.assign(s_.n * s_.n, 0);
    auto m = ctx.spawn_as<master>({.name = "recmatmul-master"}, s_);
    master_ = &m.behavior;
    s_.master = m;
    for (std::uint64_t i = 0; i < worker_count_; ++i) {
      auto w = ctx.spawn_as<worker>({}, s_);
      workers_.push_back(&w.behavior);
      s_.workers.push_back(w);
    }
    ctx.send(m, message{0, 0, start_tag});
  }

  std::uint64_t checksum() const override { return master_->acc() + sum_of_acc(workers_); }
  /// The recursion walked sequentially: each job a worker runs (and its done), each split's
  /// eight forwarded by the master, and the stops both ways.
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = message_value(0, 0, start_tag);
    walk([&](const block& w, bool root) {
      const std::uint64_t a = word_a(w), b = word_b(w);
      acc += message_value(a, b, work_tag) * (root ? 1 : 2) + message_value(a, b, done_tag);
    });
    for (std::uint64_t i = 0; i < worker_count_; ++i) acc += 2 * message_value(i, 0, stop_tag);
    return acc;
  }
  /// The start; each job to a worker, each but the root forwarded by the master too, a done per
  /// job; a stop to each worker and back.
  std::uint64_t expected_messages() const override { return 1 + 3 * jobs() - 1 + 2 * worker_count_; }
  /// Savina's own check: C[i][j] == n*i*j.
  bool result_ok() const override { return master_->stopped_ == worker_count_ && product_ok(s_.c, s_.n); }
  footprint peak() const override {
    return {double(worker_count_) + 1, double(jobs()), 3.0 * 8 * double(s_.n) * double(s_.n)};
  }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "C[n-1][n-1] = %.0f (n^3 - 2n^2 + n = %.0f), %llu jobs", s_.c.back(),
                  double(s_.n) * double(s_.n - 1) * double(s_.n - 1), (unsigned long long)master_->sent_);
    return buf;
  }

 private:
  /// Jobs in the recursion: 1 + 8 + ... + 8^depth, depth the first level at or below the threshold.
  std::uint64_t jobs() const {
    std::uint64_t all = 0, level = 1;
    for (std::uint32_t d = 0;; ++d, level *= 8) {
      all += level;
      if (num_blocks(s_.n, d) <= s_.threshold) return all;
    }
  }
  /// Every job of the recursion, root first, as the workers split them.
  template <class F>
  void walk(F&& f) const {
    std::vector<block> todo{{0, 0, 0, 0, 0, 0, std::uint32_t(s_.n), 0}};
    while (!todo.empty()) {
      const block w = todo.back();
      todo.pop_back();
      f(w, w.depth == 0);
      if (num_blocks(s_.n, w.depth) > s_.threshold) {
        block parts[8];
        split(w, parts);
        todo.insert(todo.end(), parts, parts + 8);
      }
    }
  }
  setup s_;
  std::uint64_t worker_count_;
  master* master_ = nullptr;
  std::vector<worker*> workers_;
};

}  // namespace
}  // namespace savina_recmatmul_impl

workload_info savina_recmatmul_workload() {
  using namespace savina_recmatmul_impl;
  return {"savina-recmatmul",
          "Savina RecMatMul: workers split a matrix product into eight half-size products until blocks are small",
          {{"workers", std::int64_t(20), "worker actors (Savina's NUM_WORKERS)", 1, 65535},
           {"data_length", std::int64_t(1024), "side of the square matrices, a power of two (Savina's DATA_LENGTH)", 1,
            32768},
           {"block_threshold", std::int64_t(16384),
            "a block of more elements than this is split (Savina's BLOCK_THRESHOLD)"},
           {"madd_ns", 0.36,
            "simulation only: modeled ns per multiply-add (unset: the machine's calibrated savina_recmatmul_madd, "
            "else 0.36: 128-blocks of 1024-wide matrices at -O2, calibrate on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<recmatmul>(p); },
          {{"savina_recmatmul_madd", "madd_ns", [](std::uint64_t units) {
              // The default run's leaves: 128 x 128 blocks of rows 1024 doubles wide.
              constexpr std::size_t n = 1024, dim = 128;
              static const auto inputs = [] {
                std::vector<double> m(2 * dim * n);
                for (std::size_t i = 0; i < dim * n; ++i) m[i] = double(i / n), m[dim * n + i] = double(i % n);
                return m;
              }();
              std::vector<double> c(dim * n);
              const block w{0, 0, 0, 0, 0, 0, dim, 3};
              for (std::uint64_t r = 0; r < units / (dim * dim); ++r)
                multiply_row(inputs.data(), inputs.data() + dim * n, c.data(), n, w, r % dim);
              return std::uint64_t(c[0] + c[dim * n - 1]);
            }}}};
}

}  // namespace twinsched
