// Savina's A* (GuidedSearch): a master hands search work round-robin to worker actors; each
// sweeps up to `threshold` grid nodes breadth first, claiming every neighbor it reaches in a
// table shared by all workers (a compare-and-swap per node, as Savina's GridNode.setParent),
// and hands the claimed nodes it did not sweep back to the master as new work, until one
// claims the target. The table is the run's shared words (behavior.hpp): word 0 is
// Math.random()'s seed, advanced 200 times per node swept (Savina's busy wait), word 1 + n
// holds node n's parent and distance once claimed.
#include <cstdio>
#include <memory>

#include "../../rng.hpp"
#include "astar.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_astar_impl {
namespace {

using namespace savina_astar;

enum : std::uint32_t { start_tag = 1, work_tag, received_tag, done_tag, stop_tag };

struct astar_setup {
  grid g;
  std::uint32_t threshold, workers;
};

/// A message's print. Everything sent to the master reaches it alive (each worker's last
/// message to it is its stop, and the master exits on the last of those), so those are printed
/// on both sides; work and stops sent to workers may find one exited (work forwarded after its
/// stop, a second round of stops when the last work completes after the target was found):
/// dead letters, as in Savina, counted but not printed.
std::uint64_t print(const message& m) { return splitmix64(m.a ^ splitmix64(m.b + m.tag)); }

/// Savina's Worker.
class astar_worker final : public behavior {
 public:
  astar_worker(const astar_setup& s, actor_ref master) : s_(s), master_(master) {}

  void receive(context& ctx, const message& m) override {
    if (m.tag == stop_tag) {
      send(ctx, message{0, 0, stop_tag});
      ctx.stop();
      return;
    }
    const bool found = search(
        s_.g, s_.threshold, std::uint32_t(m.a), std::uint32_t(m.b), left_,
        [&](std::uint32_t n, std::uint32_t parent, std::uint32_t distance) {
          std::uint64_t unclaimed = 0;
          if (!ctx.shared_cas(1 + n, unclaimed, claimed_word(parent, distance))) return false;
          claims_.push_back({n, parent, distance});
          return true;
        },
        [&] { busy_wait(ctx); });
    if (found) send(ctx, message{0, 0, done_tag});
    for (std::size_t i = 0; !found && i < left_.size(); ++i) send(ctx, message{left_[i].first, left_[i].second, work_tag});
    send(ctx, message{0, 0, received_tag});
  }

  std::vector<claim> claims_;
  std::uint64_t sent_ = 0, sent_print_ = 0;

 private:
  /// Savina's busyWait: 100 Math.random() calls, each two steps of the generator all threads
  /// share, a compare-and-swap loop on its seed (java.util.Random.next).
  static void busy_wait(context& ctx) {
    std::uint64_t seed = ctx.shared_load(0);
    for (std::uint32_t i = 0; i < busy_draws; ++i)
      while (!ctx.shared_cas(0, seed, java_step(seed))) {
      }
  }
  void send(context& ctx, const message& m) {
    ctx.send(master_, m);
    ++sent_;
    sent_print_ += print(m);
  }

  const astar_setup& s_;
  actor_ref master_;
  frontier left_;
};

/// Savina's Master: spawns the workers at its start (Savina's onPostStart), forwards work
/// round-robin, stops every worker once the target is found or all work is done, and exits
/// when every worker has stopped.
class astar_master final : public behavior {
 public:
  explicit astar_master(const astar_setup& s) : s_(s) {}

  void receive(context& ctx, const message& m) override {
    received_print_ += print(m);
    switch (m.tag) {
      case start_tag:
        for (std::uint32_t i = 0; i < s_.workers; ++i) {
          auto w = ctx.spawn_as<astar_worker>({}, s_, ctx.self());
          workers_.push_back(w.ref);
          kids_.push_back(&w.behavior);
        }
        return send_work(ctx, 0, 0);
      case work_tag: return send_work(ctx, m.a, m.b);
      case received_tag:
        if (++completed_ == forwarded_) stop_all(ctx);
        return;
      case done_tag:
        ++dones_;
        return stop_all(ctx);
      default:
        if (++terminated_ == s_.workers) {
          exited_ = true;
          ctx.stop();
        }
    }
  }

  std::vector<const astar_worker*> kids_;
  std::uint64_t sent_ = 0, received_print_ = 0, dones_ = 0;
  bool exited_ = false;

 private:
  void send_work(context& ctx, std::uint64_t node, std::uint64_t distance) {
    ctx.send(workers_[forwarded_++ % s_.workers], message{node, distance, work_tag});
    ++sent_;
  }
  void stop_all(context& ctx) {
    for (actor_ref w : workers_) ctx.send(w, message{0, 0, stop_tag});
    sent_ += workers_.size();
  }

  const astar_setup& s_;
  std::vector<actor_ref> workers_;
  std::uint64_t forwarded_ = 0, completed_ = 0, terminated_ = 0;
};

class astar final : public savina_workload {
 public:
  astar(const workload_params& p, std::uint64_t seed)
      : s_{make_grid(std::uint32_t(p.integer("grid_size"))), std::uint32_t(p.integer("threshold")),
           std::uint32_t(p.integer("workers"))},
        seed_(seed),
        estimate_(run_sequentially(s_.g, s_.threshold, s_.workers).messages) {}

  /// Math.random()'s seed, then a word per node.
  std::uint64_t shared_words() const override { return 1 + std::uint64_t(s_.g.nodes()); }
  void start(context& ctx) override {
    std::uint64_t zero = 0;
    ctx.shared_cas(0, zero, java_scramble(seed_));  // Math.random()'s seed: the run's, where Java takes the clock's
    auto m = ctx.spawn_as<astar_master>({.name = "astar-master"}, s_);
    master_ = &m.behavior;
    ctx.send(m, message{0, 0, start_tag});
  }
  std::uint64_t checksum() const override { return master_->received_print_; }
  std::uint64_t reference_checksum() const override {
    std::uint64_t sum = print(message{0, 0, start_tag});
    for (const astar_worker* w : master_->kids_) sum += w->sent_print_;
    return sum;
  }
  /// Which nodes each search claims, and so the work it hands back, depends on the
  /// interleaving: before the run, the count of a sequential run; once the master exited, the
  /// start and what the actors sent, dead letters included.
  std::uint64_t expected_messages() const override {
    if (!master_ || !master_->exited_) return estimate_;
    std::uint64_t sum = 1 + master_->sent_;
    for (const astar_worker* w : master_->kids_) sum += w->sent_;
    return sum;
  }
  /// The master exited after every worker stopped, the claims pass the check (Savina's
  /// validate among them), and the master heard of the target once exactly when it was claimed.
  bool result_ok() const override {
    if (!master_ || !master_->exited_ || !problem().empty()) return false;
    return master_->dones_ == (claimed(s_.g.target()) ? 1 : 0);
  }
  std::string detail() const override {
    const std::vector<claim> all = claims();
    std::uint32_t distance = 0;
    for (const claim& c : all)
      if (c.node == s_.g.target()) distance = c.distance;
    char buf[160];
    // Savina's nodesProcessed: the claimed nodes and the origin
    std::snprintf(buf, sizeof buf, "%zu nodes processed, target at distance %u, %u workers", all.size() + 1, distance,
                  s_.workers);
    const std::string wrong = problem();
    return wrong.empty() ? buf : std::string(buf) + ": " + wrong;
  }
  /// The grid, its shared words and the claims; the master's mailbox may hold a node's work each.
  footprint peak() const override {
    const double n = s_.g.nodes();
    return {double(s_.workers) + 1, n, 4.0 * double(s_.g.edges.size()) + 4.0 * n + 8.0 * n + 12.0 * n};
  }

 private:
  std::vector<claim> claims() const {
    std::vector<claim> all;
    if (master_)
      for (const astar_worker* w : master_->kids_) all.insert(all.end(), w->claims_.begin(), w->claims_.end());
    return all;
  }
  bool claimed(std::uint32_t n) const {
    for (const astar_worker* w : master_->kids_)
      for (const claim& c : w->claims_)
        if (c.node == n) return true;
    return false;
  }
  std::string problem() const { return check(s_.g, claims()); }

  astar_setup s_;
  std::uint64_t seed_, estimate_;
  astar_master* master_ = nullptr;
};

}  // namespace
}  // namespace savina_astar_impl

workload_info savina_astar_workload() {
  using namespace savina_astar_impl;
  return {"savina-astar",
          "Savina's A* (GuidedSearch): worker actors sweep a 3-D grid breadth first from the origin, "
          "claiming nodes in a table they share by compare-and-swap, and hand unswept nodes back to a "
          "master as new work until one reaches the target",
          {{"workers", std::int64_t(20), "Savina's NUM_WORKERS: worker actors (not threads)", 1, 1e6},
           {"grid_size", std::int64_t(30), "Savina's GRID_SIZE: the grid is grid_size^3 nodes (Savina caps it at 248)",
            2, 248},
           {"threshold", std::int64_t(1024),
            "Savina's THRESHOLD: nodes a search sweeps before handing the rest back as new work", 1, 1e9}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<astar>(p, seed); }};
}

}  // namespace twinsched
