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
};

/// A reply's fingerprint: the job (its left end) and the area, both bit for bit.
inline std::uint64_t reply_value(double left, double area) {
  return splitmix64(std::bit_cast<std::uint64_t>(left)) + std::bit_cast<std::uint64_t>(area);
}

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
  explicit master(const setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == start_tag) {
      for (std::uint64_t i = 0; i < s_.workers; ++i)
        ctx.send(s_.workers_refs[i],
                 message{std::bit_cast<std::uint64_t>(s_.left(i)), std::bit_cast<std::uint64_t>(s_.right(i))});
      return;
    }
    const double area = std::bit_cast<double>(m.b);
    area_ += area;
    acc_ += reply_value(std::bit_cast<double>(m.a), area);
    ++replies_;
  }
  static constexpr std::uint32_t start_tag = 1;
  double area_ = 0;
  std::uint64_t acc_ = 0, replies_ = 0;

 private:
  const setup& s_;
};

/// The sequential reference: the jobs' areas and checksum terms, added one after another. At
/// namespace scope: clang finds a nested struct with member initializers not
/// default-constructible inside its enclosing class, so std::optional::emplace() would not compile.
struct reference_sum {
  double area = 0;
  std::uint64_t acc = 0;
};

class trapezoid final : public workload {
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
  std::uint64_t reference_checksum() const override { return reference().acc; }
  std::uint64_t expected_messages() const override { return 2 * s_.workers + 1; }
  footprint peak() const override { return {double(s_.workers) + 1, double(s_.workers), 8.0 * double(s_.workers)}; }
  /// Every worker replied, and the areas add up to the sequential sum of the same jobs.
  bool result_ok() const override { return master_->replies_ == s_.workers && area_ok(master_->area_, reference().area); }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "area = %.12f (sequential %.12f)", master_->area_, reference().area);
    return buf;
  }

 private:
  /// The jobs computed one after another, once.
  const reference_sum& reference() const {
    if (!ref_) {
      ref_.emplace();
      for (std::uint64_t i = 0; i < s_.workers; ++i) {
        const double a = worker_area(s_.left(i), s_.right(i), s_.h);
        ref_->area += a;
        ref_->acc += reply_value(s_.left(i), a);
      }
    }
    return *ref_;
  }
  setup s_;
  master* master_ = nullptr;
  mutable std::optional<reference_sum> ref_;
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
