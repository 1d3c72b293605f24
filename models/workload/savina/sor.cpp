// Savina's SOR: red-black successive over-relaxation on an s x s grid, an actor per point. A runner
// spawns the left half's actors and a peer, which spawns the right half's; the peer tells the
// runner its border, each half's owner starts its actors, and each point sends its value to its
// neighbors every sweep, updating once it holds all of theirs. After `jacobi_num_iter` sends a
// point reports its value to its half's owner and stops (its neighbors' last values to it become
// dead letters, as in Savina); the peer sends the runner its half's total.
#include <bit>
#include <cstdio>
#include <vector>

#include "../../config.hpp"
#include "savina.hpp"
#include "sor.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_sor_impl {
namespace {
using namespace savina_sor;

enum tag : std::uint32_t { boot_tag = 1, border_tag, start_tag, value_tag, result_tag };

inline std::uint64_t message_value(std::uint64_t who, std::uint32_t t, std::uint64_t index) {
  return splitmix64(splitmix64(who ^ std::uint64_t(t) << 56) ^ index);
}

class point;

struct setup {
  std::uint32_t s, part, iterations;
  double omega;
  std::vector<double> start;
  std::vector<actor_ref> refs;  ///< every point's actor, x * s + y, filled as they are spawned
  std::vector<point*> points;
  actor_ref runner, peer;
};

class point final : public behavior {
 public:
  point(const setup& s, std::uint32_t id, actor_ref owner)
      : s_(s), id_(id), owner_(owner), value_(s.start[id]),
        neighbors_(neighbors(id / s.s, id % s.s, s.s)), color_(color(id / s.s, id % s.s)) {}

  void receive(context& ctx, const message& m) override {
    if (m.tag == start_tag) {
      acc_ += message_value(id_, start_tag, 0);
      started_ = true;
      if (color_ == 1) {
        send_value(ctx);
        ++iter_;
        ++received_;
      }
      // Savina sends the values that came before the start back to itself; taken here, in order.
      for (double v : pending_) on_value(ctx, v);
      pending_.clear();
      return;
    }
    acc_ += message_value(id_, value_tag, values_++);
    if (!started_)
      pending_.push_back(std::bit_cast<double>(m.a));
    else
      on_value(ctx, std::bit_cast<double>(m.a));
  }

  std::uint64_t acc_ = 0;

 private:
  void on_value(context& ctx, double v) {
    ++received_;
    if (iter_ >= s_.iterations) return;
    sum_ += v;
    if (++got_ == neighbors_.size()) {
      value_ = update(value_, sum_, s_.omega);
      sum_ = 0;
      got_ = 0;
      send_value(ctx);
      ++iter_;
    }
    if (iter_ == s_.iterations) {
      ctx.send(owner_, message{std::bit_cast<std::uint64_t>(value_), std::uint64_t(id_) << 32 | received_, result_tag});
      ctx.stop();
    }
  }
  void send_value(context& ctx) {
    for (std::uint32_t n : neighbors_) ctx.send(s_.refs[n], message{std::bit_cast<std::uint64_t>(value_), 0, value_tag});
  }

  const setup& s_;
  std::uint32_t id_;
  actor_ref owner_;
  double value_, sum_ = 0;
  std::vector<std::uint32_t> neighbors_;
  std::vector<double> pending_;
  std::uint32_t color_, iter_ = 0, got_ = 0, received_ = 0;
  std::uint64_t values_ = 0;
  bool started_ = false;
};

/// The runner (left) and the peer (right): each spawns its half's points and sums their results.
class half final : public behavior {
 public:
  half(setup& s, bool is_runner) : s_(s), runner_(is_runner) {}

  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case boot_tag:
        acc_ += message_value(runner_, boot_tag, 0);
        if (runner_) {
          spawn_points(ctx, 0, s_.part);
          auto p = ctx.spawn_as<half>({.name = "sor-peer"}, s_, false);
          s_.peer = p;
          peer_ = &p.behavior;
          ctx.send(p, message{0, 0, boot_tag});
        } else {
          spawn_points(ctx, s_.part, s_.s);
          ctx.send(s_.runner, message{0, 0, border_tag});  // the runner knows its border from refs
          start_points(ctx, s_.part, s_.s);
        }
        break;
      case border_tag:
        acc_ += message_value(runner_, border_tag, 0);
        start_points(ctx, 0, s_.part);
        break;
      default: {
        const std::uint64_t from = m.b >> 32;
        acc_ += message_value(runner_, result_tag, from);
        total_ += std::bit_cast<double>(m.a);
        received_ += std::uint32_t(m.b);
        ++returned_;
        if (!runner_ && returned_ == std::uint64_t(s_.s) * (s_.s - s_.part))
          ctx.send(s_.runner, message{std::bit_cast<std::uint64_t>(total_), ~0ull << 32 | received_, result_tag});
      }
    }
  }

  std::uint64_t acc_ = 0, returned_ = 0;
  std::uint32_t received_ = 0;
  double total_ = 0;
  half* peer_ = nullptr;

 private:
  void spawn_points(context& ctx, std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t x = 0; x < s_.s; ++x)
      for (std::uint32_t y = from; y < to; ++y) {
        const std::uint32_t id = x * s_.s + y;
        auto p = ctx.spawn_as<point>({}, s_, id, ctx.self());
        s_.refs[id] = p;
        s_.points[id] = &p.behavior;
      }
  }
  void start_points(context& ctx, std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t x = 0; x < s_.s; ++x)
      for (std::uint32_t y = from; y < to; ++y) ctx.send(s_.refs[x * s_.s + y], message{0, 0, start_tag});
  }
  setup& s_;
  bool runner_;
};

class sor final : public savina_workload {
 public:
  sor(const workload_params& p, std::uint64_t seed) : seed_(seed) {
    s_.s = data_sizes[p.integer("n")];
    s_.part = s_.s / 2;
    s_.iterations = std::uint32_t(p.integer("jacobi_num_iter"));
    s_.omega = p.real("omega");
  }

  void start(context& ctx) override {
    s_.start = initial(s_.s, seed_);
    s_.refs.resize(std::size_t(s_.s) * s_.s);
    s_.points.resize(std::size_t(s_.s) * s_.s);
    auto r = ctx.spawn_as<half>({.name = "sor-runner"}, s_, true);
    runner_ = &r.behavior;
    s_.runner = r;
    ctx.send(r, message{0, 0, boot_tag});
  }

  std::uint64_t checksum() const override {
    std::uint64_t acc = runner_->acc_ + (runner_->peer_ ? runner_->peer_->acc_ : 0);
    for (const point* p : s_.points) acc += p ? p->acc_ : 0;
    return acc;
  }
  /// Each point: its start, and its neighbors' values up to its stop (color 0 takes all
  /// `iterations` of each neighbor's, color 1 one fewer); the owners: the boots, the border and
  /// the results.
  std::uint64_t reference_checksum() const override {
    const std::uint32_t s = s_.s;
    std::uint64_t acc = message_value(1, boot_tag, 0) + message_value(0, boot_tag, 0) + message_value(1, border_tag, 0);
    for (std::uint32_t id = 0; id < s * s; ++id) {
      const std::uint32_t x = id / s, y = id % s;
      acc += message_value(id, start_tag, 0) + message_value(y < s_.part, result_tag, id);
      const std::uint64_t live = neighbors(x, y, s).size() * (s_.iterations - color(x, y));
      for (std::uint64_t i = 0; i < live; ++i) acc += message_value(id, value_tag, i);
    }
    return acc + message_value(1, result_tag, ~0u);
  }
  /// The boots, the border, a start and a result per point, the peer's total, and every value
  /// sent: each point sends `iterations` times to each neighbor.
  std::uint64_t expected_messages() const override {
    const std::uint64_t s = s_.s, edges = 2 * s * (s - 1);
    return 3 + 2 * s * s + 1 + 2 * edges * s_.iterations;
  }
  /// Every result came back, and the runner's total is the sequential sweeps' (Savina's check).
  bool result_ok() const override {
    const std::uint64_t s = s_.s;
    if (!runner_->peer_ || runner_->returned_ != s * s_.part + 1 || runner_->peer_->returned_ != s * (s - s_.part))
      return false;
    return total_ok(runner_->total_, reference_total());
  }
  footprint peak() const override {
    const double points = double(s_.s) * s_.s;
    return {points + 2, 4 * points, 200 * points};
  }
  std::string detail() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "gTotal = %.15g (sequential %.15g), %u values received", runner_->total_,
                  reference_total(), runner_->received_);
    return buf;
  }

 private:
  double reference_total() const {
    double total = 0;
    for (double v : sweeps(initial(s_.s, seed_), s_.s, s_.iterations, s_.omega)) total += v;
    return total;
  }
  setup s_{};
  std::uint64_t seed_;
  half* runner_ = nullptr;
};

}  // namespace
}  // namespace savina_sor_impl

workload_info savina_sor_workload() {
  using namespace savina_sor_impl;
  return {"savina-sor",
          "Savina SOR: red-black successive over-relaxation on a grid, an actor per point trading values with its neighbors",
          {{"n", std::int64_t(0), "grid size, as Savina's index into 20 80 100 120 150 200 250 300 350 400 (Savina's N)",
            0, 9},
           {"jacobi_num_iter", std::int64_t(100), "values each point sends its neighbors (Savina's JACOBI_NUM_ITER)", 2,
            1e6},
           {"omega", 1.25, "the over-relaxation factor (Savina's OMEGA)", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<sor>(p, seed); }};
}

}  // namespace twinsched
