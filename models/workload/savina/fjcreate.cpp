// Savina's Fork Join (actor creation): `actors` actors are created one after another, each is
// sent one message, computes sin(theta)^2 for it and stops. In Savina the main thread creates
// and sends while the actors run; here a creator actor does, started by the one injected
// message, so the actors are created during the run, as there. Measures the cost of creating an
// actor and running its first turn.
#include <cstdio>
#include <vector>

#include "fjcreate.hpp"
#include "fjthrput.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_fjcreate_impl {
namespace {
using namespace savina_fjcreate;

class fj_actor final : public behavior {
 public:
  explicit fj_actor(const double& theta) : theta_(theta) {}
  void receive(context& ctx, const message& m) override {
    acc_ = value(m.a);
    bad_ = !savina_fjthrput::compute(theta_);
    done_ = true;
    ctx.stop();
  }
  std::uint64_t acc() const { return acc_; }
  bool done_ = false, bad_ = false;

 private:
  const double& theta_;
  std::uint64_t acc_ = 0;
};

struct setup {
  std::uint64_t actors;
  double theta;  ///< read at run time, so the compiler cannot fold the computation away
  std::vector<fj_actor*> made;
};

class creator final : public behavior {
 public:
  explicit creator(setup& s) : s_(s) {}
  void receive(context& ctx, const message&) override {
    for (std::uint64_t i = 0; i < s_.actors; ++i) {
      auto a = ctx.spawn_as<fj_actor>({}, s_.theta);
      s_.made.push_back(&a.behavior);
      ctx.send(a, message{i});
    }
  }

 private:
  setup& s_;
};

class fjcreate final : public savina_workload {
 public:
  explicit fjcreate(const workload_params& p) : s_{std::uint64_t(p.integer("actors")), savina_fjthrput::theta, {}} {}

  void start(context& ctx) override {
    s_.made.reserve(s_.actors);
    ctx.send(ctx.spawn_as<creator>({.name = "creator"}, s_), message{});
  }

  std::uint64_t checksum() const override { return sum_of_acc(s_.made); }
  std::uint64_t reference_checksum() const override { return savina_fjcreate::reference_checksum(s_.actors); }
  std::uint64_t expected_messages() const override { return messages(s_.actors); }
  /// The creator may create every actor, each with its message, before one runs.
  footprint peak() const override { return {double(s_.actors) + 1, double(s_.actors), 8.0 * double(s_.actors)}; }
  bool result_ok() const override {
    std::uint64_t processed = 0, bad = 0;
    for (const auto* a : s_.made) {
      processed += a->done_;
      bad += a->bad_;
    }
    return savina_fjcreate::result_ok(s_.actors, s_.made.size(), processed, bad);
  }
  std::string detail() const override {
    std::uint64_t processed = 0;
    for (const auto* a : s_.made) processed += a->done_;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu of %llu actors created and run", static_cast<unsigned long long>(processed),
                  static_cast<unsigned long long>(s_.actors));
    return buf;
  }

 private:
  setup s_;
};

}  // namespace
}  // namespace savina_fjcreate_impl

workload_info savina_fjcreate_workload() {
  using namespace savina_fjcreate_impl;
  return {"savina-fjcreate",
          "Savina Fork Join (creation): actors created one after another, each running one message and stopping",
          {{"actors", std::int64_t(40000), "actors created, one message each (Savina's N)", 1, 1e8}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<fjcreate>(p); }};
}

}  // namespace twinsched
