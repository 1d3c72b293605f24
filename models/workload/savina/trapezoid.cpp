// Savina's Trapezoid (trapezoidal rule): a master splits [l, r] into one range per worker, each
// worker integrates fx over its range in n/w trapezoids and replies with its area, and the master
// sums the areas. Messages: the start, w jobs, w replies.
#include <bit>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "../../rng.hpp"
#include "savina.hpp"
#include "trapezoid.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_trapezoid_impl {
namespace {
using namespace savina_trapezoid;

struct setup {
  std::uint64_t workers;
  double l, r, h;  ///< the interval and the width of one trapezoid, (r - l) / n
  double piece_ns;
  actor_ref master;
  std::vector<actor_ref> workers_refs;
  /// Worker i's range starts here, as Savina's master computes it.
  double left(std::uint64_t i) const { return (r - l) / double(workers) * double(i) + l; }
  double right(std::uint64_t i) const { return left(i) + (r - l) / double(workers); }
  /// The job whose range starts at `left`, or `workers` if none does.
  std::uint64_t job_of(double left_end) const {
    const double q = std::nearbyint((left_end - l) / ((r - l) / double(workers)));
    if (!(q >= 0 && q < double(workers))) return workers;
    const auto i = std::uint64_t(q);
    return std::bit_cast<std::uint64_t>(left(i)) == std::bit_cast<std::uint64_t>(left_end) ? i : workers;
  }
};

/// A reply's fingerprint: the job it answers (its left end, bit for bit).
inline std::uint64_t reply_value(double left) { return splitmix64(std::bit_cast<std::uint64_t>(left)); }

/// A job carries its range (a = left, b = right, as doubles); the width is the run's constant.
class worker final : public behavior {
 public:
  explicit worker(const setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    const double l = std::bit_cast<double>(m.a), r = std::bit_cast<double>(m.b);
    const double area = worker_area(l, r, s_.h);
    ctx.did_work_ns(std::uint64_t(double(pieces(l, r, s_.h)) * s_.piece_ns));
    ctx.send(s_.master, message{m.a, std::bit_cast<std::uint64_t>(area)});
  }

 private:
  const setup& s_;
};

class master final : public behavior {
 public:
  explicit master(const setup& s) : s_(s) {
    got_.area.assign(s.workers, 0);
    got_.replies.assign(s.workers, 0);
  }
  void receive(context& ctx, const message& m) override {
    if (m.tag == start_tag) {
      for (std::uint64_t i = 0; i < s_.workers; ++i)
        ctx.send(s_.workers_refs[i],
                 message{std::bit_cast<std::uint64_t>(s_.left(i)), std::bit_cast<std::uint64_t>(s_.right(i))});
      return;
    }
    const double left = std::bit_cast<double>(m.a), area = std::bit_cast<double>(m.b);
    got_.total += area;
    acc_ += reply_value(left);
    if (const std::uint64_t i = s_.job_of(left); i < s_.workers) {
      got_.area[i] = area;
      ++got_.replies[i];
    } else {
      ++got_.strays;
    }
  }
  static constexpr std::uint32_t start_tag = 1;
  received got_;
  std::uint64_t acc_ = 0;

 private:
  const setup& s_;
};

class trapezoid final : public savina_workload {
 public:
  explicit trapezoid(const workload_params& p)
      : s_{std::uint64_t(p.integer("w")), p.real("l"), p.real("r"),
           (p.real("r") - p.real("l")) / double(p.integer("n")), p.real("piece_ns"), {}, {}} {}

  void start(context& ctx) override {
    auto m = ctx.spawn_as<master>({.name = "trapezoid-master"}, s_);
    master_ = &m.behavior;
    s_.master = m;
    // A job's reply depends only on its range, so the workers are equals (donation may move jobs).
    for (std::uint64_t i = 0; i < s_.workers; ++i) s_.workers_refs.push_back(ctx.spawn_as<worker>({.group = 1}, s_));
    ctx.send(m, message{0, 0, master::start_tag});
  }

  bool has_groups() const override { return true; }
  std::uint64_t checksum() const override { return master_->acc_; }
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = 0;
    for (std::uint64_t i = 0; i < s_.workers; ++i) acc += reply_value(s_.left(i));
    return acc;
  }
  std::uint64_t expected_messages() const override { return 2 * s_.workers + 1; }
  footprint peak() const override { return {double(s_.workers) + 1, double(s_.workers), 8.0 * double(s_.workers)}; }
  /// Every job replied once, each with its area (savina_trapezoid::judge), and the master
  /// summed them.
  bool result_ok() const override { return judged().ok; }
  std::string detail() const override {
    const judgement& j = judged();
    char buf[192];
    if (!j.ok)
      std::snprintf(buf, sizeof buf, "area = %.12f; check failed: %s", master_->got_.total, j.why.c_str());
    else if (j.estimated == 0)
      std::snprintf(buf, sizeof buf, "area = %.12f (%llu jobs summed again)", master_->got_.total,
                    (unsigned long long)j.summed);
    else
      std::snprintf(buf, sizeof buf, "area = %.12f (%llu jobs within %.1e of their estimates, %llu summed again)",
                    master_->got_.total, (unsigned long long)j.estimated, j.widest, (unsigned long long)j.summed);
    return buf;
  }

 private:
  /// The check, once: summing every job again would cost as much as the run.
  const judgement& judged() const {
    if (!judged_)
      judged_ = judge(master_->got_, s_.workers, s_.h, [this](std::uint64_t i) { return s_.left(i); },
                      [this](std::uint64_t i) { return s_.right(i); });
    return *judged_;
  }
  setup s_;
  master* master_ = nullptr;
  mutable std::optional<judgement> judged_;
};

}  // namespace
}  // namespace savina_trapezoid_impl

workload_info savina_trapezoid_workload() {
  using namespace savina_trapezoid_impl;
  constexpr double any = -std::numeric_limits<double>::infinity();
  return {"savina-trapezoid",
          "Savina Trapezoid: a master splits an integral among workers that each sum their range's trapezoids",
          {{"n", std::int64_t(10000000), "trapezoids in all (Savina's N)"},
           {"w", std::int64_t(100), "worker actors (Savina's W)", 1, 1e6},
           {"l", 1.0, "left end of the interval", any},
           {"r", 5.0, "right end of the interval", any},
           {"piece_ns", 50.0,
            "simulation only: modeled ns per trapezoid, two fx calls (unset: the machine's calibrated "
            "savina_trapezoid_piece, else 50: best of seven 10^6-trapezoid runs at -O2 on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<trapezoid>(p); },
          {{"savina_trapezoid_piece", "piece_ns",
            [](std::uint64_t units) {
              return std::bit_cast<std::uint64_t>(worker_area(1, 5, 4.0 / double(units ? units : 1)));
            }}}};
}

}  // namespace twinsched
