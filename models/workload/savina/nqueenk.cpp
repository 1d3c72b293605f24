// Savina's NQueens-K: a master hands boards round robin to worker actors; a worker extends a
// board of fewer than `threshold` queens by one queen in every valid way and sends each back
// to the master as new work, searches a deeper board sequentially, and reports each solution.
// The master stops the workers at the K-th solution or when all work is done.
#include <cstdio>
#include <vector>

#include "nqueenk.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_nqueenk_impl {
namespace {

using namespace savina_nqueenk;

enum : std::uint32_t { start_tag = 1, work_tag, result_tag, done_tag, stop_tag };

struct nqueenk_setup {
  std::uint64_t size, threshold, workers, limit;
  double check_ns;
};

/// Each actor's own records: what it received (its print) and what it sent (how many, and the
/// prints their receivers add: messages that reach a live actor).
struct records {
  std::uint64_t received = 0, sent = 0, sent_print = 0;
  void send(context& ctx, actor_ref to, const message& m, std::uint64_t print) {
    ctx.send(to, m);
    ++sent;
    sent_print += print;
  }
};

/// Savina's Worker.
class nqueenk_worker final : public behavior {
 public:
  nqueenk_worker(const nqueenk_setup& s, actor_ref master) : s_(s), master_(master) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == stop_tag) {
      rec_.received += stop_print;
      rec_.send(ctx, master_, message{0, 0, stop_tag}, stopped_print);
      ctx.stop();
      return;
    }
    const std::uint64_t depth = m.b;
    rec_.received += worker_work_print(m.a, depth);
    std::uint8_t b[max_size] = {};
    unpack(m.a, depth, b);
    std::uint64_t pairs = 0;
    if (depth == s_.size) {
      found(ctx);
    } else if (depth >= s_.threshold) {
      search(s_.size, b, depth, pairs, [&] { found(ctx); });
    } else {
      for (std::uint64_t i = 0; i < s_.size; ++i) {
        b[depth] = std::uint8_t(i);
        if (!board_valid(depth + 1, b, pairs)) continue;
        const std::uint64_t w = pack(b, depth + 1);
        rec_.send(ctx, master_, message{w, depth + 1, work_tag}, master_work_print(w, depth + 1));
      }
    }
    ctx.did_work_ns(std::uint64_t(double(pairs) * s_.check_ns));
    rec_.send(ctx, master_, message{0, 0, done_tag}, done_print);
  }
  const records& rec() const { return rec_; }

 private:
  void found(context& ctx) { rec_.send(ctx, master_, message{0, 0, result_tag}, result_print); }

  const nqueenk_setup& s_;
  actor_ref master_;
  records rec_;
};

/// Savina's Master.
class nqueenk_master final : public behavior {
 public:
  explicit nqueenk_master(const nqueenk_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case start_tag:
        rec_.received += start_print;
        for (std::uint64_t i = 0; i < s_.workers; ++i) {
          auto w = ctx.spawn_as<nqueenk_worker>({}, s_, ctx.self());
          workers_.push_back(w.ref);
          worker_records_.push_back(&w.behavior.rec());
        }
        return send_work(ctx, 0, 0);
      case work_tag:
        rec_.received += master_work_print(m.a, m.b);
        return send_work(ctx, m.a, m.b);
      case result_tag:
        rec_.received += result_print;
        if (++solutions_ == s_.limit) stop_workers(ctx);
        return;
      case done_tag:
        rec_.received += done_print;
        if (++completed_ == work_sent_) stop_workers(ctx);
        return;
      default:
        rec_.received += stopped_print;
        if (++stopped_ == s_.workers) {
          finished_ = true;
          ctx.stop();
        }
    }
  }

  std::uint64_t solutions_ = 0;
  bool finished_ = false;
  records rec_;
  std::vector<const records*> worker_records_;

 private:
  void send_work(context& ctx, std::uint64_t board, std::uint64_t depth) {
    // after the workers were told to stop, a message to one is a dead letter: no print
    send(ctx, workers_[next_], message{board, depth, work_tag}, worker_work_print(board, depth));
    next_ = (next_ + 1) % s_.workers;
    ++work_sent_;
  }
  /// Savina's requestWorkersToTerminate; a search cut at the limit may ask twice.
  void stop_workers(context& ctx) {
    for (actor_ref w : workers_) send(ctx, w, message{0, 0, stop_tag}, stop_print);
    stopping_ = true;
  }
  void send(context& ctx, actor_ref to, const message& m, std::uint64_t print) {
    rec_.send(ctx, to, m, stopping_ ? 0 : print);
  }

  const nqueenk_setup& s_;
  std::vector<actor_ref> workers_;
  std::uint64_t next_ = 0, work_sent_ = 0, completed_ = 0, stopped_ = 0;
  bool stopping_ = false;
};

class nqueenk final : public savina_workload {
 public:
  explicit nqueenk(const workload_params& p)
      : s_{std::uint64_t(p.integer("size")), std::uint64_t(p.integer("threshold")),
           std::uint64_t(p.integer("workers")), std::uint64_t(p.integer("solutions_limit")), p.real("check_ns")},
        ref_(run_sequentially(s_.size, s_.threshold, s_.workers)) {}

  void start(context& ctx) override {
    auto m = ctx.spawn_as<nqueenk_master>({.name = "nqueenk-master"}, s_);
    master_ = &m.behavior;
    ctx.send(m, message{0, 0, start_tag});
  }
  std::uint64_t checksum() const override {
    std::uint64_t sum = master_->rec_.received;
    for (const records* r : master_->worker_records_) sum += r->received;
    return sum;
  }
  /// A search that runs to its end: the sequential run's; one cut at the limit: the prints of
  /// what the actors sent to live actors (how far a cut search got depends on the interleaving).
  std::uint64_t reference_checksum() const override {
    if (!cut()) return ref_.print;
    std::uint64_t sum = start_print + master_->rec_.sent_print;
    for (const records* r : master_->worker_records_) sum += r->sent_print;
    return sum;
  }
  /// Before the run, and for a search that runs to its end: the sequential run's count; for a
  /// search cut at the limit, once it ended: the start and every message the actors sent (a
  /// message to a stopped actor is processed as a dead letter).
  std::uint64_t expected_messages() const override {
    if (!cut() || !master_ || !master_->finished_) return ref_.messages;
    std::uint64_t sum = 1 + master_->rec_.sent;
    for (const records* r : master_->worker_records_) sum += r->sent;
    return sum;
  }
  bool result_ok() const override {
    return master_->finished_ && savina_nqueenk::result_ok(s_.size, s_.limit, master_->solutions_);
  }
  std::string detail() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%llu solutions of %llu-queens found (%llu in all, limit %llu)",
                  (unsigned long long)master_->solutions_, (unsigned long long)s_.size,
                  (unsigned long long)solutions[s_.size - 1], (unsigned long long)s_.limit);
    return buf;
  }
  footprint peak() const override { return {double(s_.workers) + 1, double(ref_.messages) / 2, 0}; }

 private:
  /// The limit is reached: the master stops the workers while work may still be on its way
  /// (and, at a limit of every solution, asks them twice).
  bool cut() const { return s_.limit <= solutions[s_.size - 1]; }

  nqueenk_setup s_;
  reference ref_;
  nqueenk_master* master_ = nullptr;
};

/// The kernel: boardValid's pair comparisons, as a sequential search of 8 queens makes them.
std::uint64_t pair_checks(std::uint64_t units) {
  std::uint64_t pairs = 0, found = 0;
  std::uint8_t b[max_size] = {};
  while (pairs < units) search(8, b, 0, pairs, [&] { ++found; });
  return pairs + found;
}

}  // namespace
}  // namespace savina_nqueenk_impl

workload_info savina_nqueenk_workload() {
  using namespace savina_nqueenk_impl;
  return {"savina-nqueenk",
          "Savina's NQueens-K: a master hands partial boards round robin to worker actors, which split "
          "them into new work or search them, until the K-th solution or the search's end",
          {{"size", std::int64_t(12), "Savina's SIZE: queens and the board's side", 1, double(max_size)},
           {"threshold", std::int64_t(4), "Savina's THRESHOLD: a board of this many queens is searched sequentially",
            1, double(max_threshold)},
           {"workers", std::int64_t(20), "Savina's NUM_WORKERS: worker actors (not threads)", 1, 1e6},
           {"solutions_limit", std::int64_t(1500000), "Savina's SOLUTIONS_LIMIT: K, the solutions wanted"},
           {"check_ns", 1.5,
            "simulation only: modeled cost of comparing two queens, ns (unset: the machine model's calibrated "
            "savina_nqueenk_pair_check, else 1.5)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<nqueenk>(p); },
          {{"savina_nqueenk_pair_check", "check_ns", pair_checks}}};
}

}  // namespace twinsched
