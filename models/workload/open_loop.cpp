// Workload `open-loop`: requests arrive at a set rate from outside, whatever the runtime does with them; each one's latency is recorded.
//
// Every other stock workload is closed-loop: made of work, so a faster runtime just ends
// sooner. Here time is part of the load: `requests` arrivals at a target rate (a seeded
// Poisson process, or an on/off one: Poisson while on, nothing while off, the same mean
// rate), each a timer (context::send_after) set at the start to reach one of `services`
// service actors at its arrival time. The rate is `load` times the machine's capacity:
// `capacity_workers` (0: the run's workers) serving requests of `service_ns` on average. A
// service actor burns the request's cost, drawn from `service_dist`, and records its
// latency: from the moment the timer service delivered it (its arrival, stamped into `b`)
// to the end of its handling. The timer service's own lateness (the OS timer's precision)
// is thereby left out of the latency, and reported apart (run_result::timer_late_*).
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../rng.hpp"
#include "builtins.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace open_loop_impl {
namespace {

struct open_loop_setup {
  std::uint64_t requests = 0, services = 0, seed = 0;
  double load = 0, service_ns = 0;
  std::string dist, arrivals;
  double on_ns = 0, off_ns = 0;
  std::uint64_t capacity_workers = 0;

  /// Uniform in [0, 1) from request k's stream `what`.
  double uniform(std::uint64_t k, std::uint64_t what) const {
    return double(splitmix64(seed ^ (what << 56) ^ k) >> 11) * 0x1.0p-53;
  }
  /// Request k's handling cost.
  std::uint64_t cost(std::uint64_t k) const {
    const double u = uniform(k, 1);
    double c = service_ns;
    if (dist == "exponential") c = -service_ns * std::log1p(-u);
    else if (dist == "uniform") c = service_ns * (0.5 + u);
    return std::uint64_t(std::llround(std::min(c, 1e12)));
  }
  /// What request k adds to the checksum.
  std::uint64_t value(std::uint64_t k) const { return splitmix64(seed ^ (std::uint64_t(7) << 56) ^ k); }
};

class service final : public behavior {
 public:
  explicit service(const open_loop_setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    ctx.burn_ns(s_.cost(m.a));
    const std::uint64_t now = ctx.now_ns();
    ctx.record_latency(now > m.b ? now - m.b : 0);
    acc_ += s_.value(m.a);
    ++handled_;
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t handled() const { return handled_; }

 private:
  const open_loop_setup& s_;
  std::uint64_t acc_ = 0, handled_ = 0;
};

class open_loop final : public workload {
 public:
  open_loop(const workload_params& p, std::uint64_t seed) {
    s_.requests = std::uint64_t(p.integer("requests"));
    s_.services = std::uint64_t(p.integer("services"));
    s_.load = p.real("load");
    s_.service_ns = double(p.integer("service_ns"));
    s_.dist = std::get<std::string>(p.values.at("service_dist"));
    s_.arrivals = std::get<std::string>(p.values.at("arrivals"));
    s_.on_ns = double(p.integer("on_us")) * 1e3;
    s_.off_ns = double(p.integer("off_us")) * 1e3;
    s_.capacity_workers = std::uint64_t(p.integer("capacity_workers"));
    s_.seed = seed;
    if (s_.dist != "exponential" && s_.dist != "uniform" && s_.dist != "constant")
      throw std::invalid_argument("service_dist must be exponential, uniform or constant, not '" + s_.dist + "'");
    if (s_.arrivals != "poisson" && s_.arrivals != "onoff")
      throw std::invalid_argument("arrivals must be poisson or onoff, not '" + s_.arrivals + "'");
  }

  bool uses_timers() const override { return true; }

  void start(context& ctx) override {
    const double workers = double(s_.capacity_workers ? s_.capacity_workers : ctx.worker_count());
    rate_per_s_ = s_.load * workers * 1e9 / s_.service_ns;
    for (std::uint64_t i = 0; i < s_.services; ++i) {
      auto made = ctx.spawn_as<service>({}, s_);
      services_.push_back(&made.behavior);
      refs_.push_back(made);
    }
    // Arrivals in "active time" (Poisson at the rate while on), then mapped onto the clock.
    const bool onoff = s_.arrivals == "onoff";
    const double on_share = onoff ? s_.on_ns / (s_.on_ns + s_.off_ns) : 1;
    const double gap_ns = 1e9 / (rate_per_s_ / on_share);
    double active = 0;
    for (std::uint64_t k = 0; k < s_.requests; ++k) {
      active += -gap_ns * std::log1p(-s_.uniform(k, 2));
      double at = active;
      if (onoff) {
        const double periods = std::floor(active / s_.on_ns);
        at = periods * (s_.on_ns + s_.off_ns) + (active - periods * s_.on_ns);
      }
      last_arrival_ns_ = at;
      ctx.send_after(refs_[k % s_.services], message{k, 0, 0}, std::uint64_t(std::llround(at)), true);
    }
  }

  std::uint64_t checksum() const override { return sum_of_acc(services_); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t sum = 0;
    for (std::uint64_t k = 0; k < s_.requests; ++k) sum += s_.value(k);
    return sum;
  }
  std::uint64_t expected_messages() const override { return s_.requests; }
  bool result_ok() const override {
    std::uint64_t handled = 0;
    for (const service* s : services_) handled += s->handled();
    return handled == s_.requests;
  }
  std::string detail() const override {
    char b[160];
    std::snprintf(b, sizeof b, "offered %.0f requests/s (load %.2f), arrivals over %.3f s", rate_per_s_, s_.load,
                  last_arrival_ns_ * 1e-9);
    return b;
  }
  /// Every request waits in the timer heap from the start.
  footprint peak() const override { return {double(s_.services), double(s_.requests), 40.0 * double(s_.requests)}; }

 private:
  open_loop_setup s_;
  double rate_per_s_ = 0, last_arrival_ns_ = 0;
  std::vector<service*> services_;
  std::vector<actor_ref> refs_;
};

}  // namespace
}  // namespace open_loop_impl

workload_info open_loop_workload() {
  using namespace open_loop_impl;
  return {"open-loop",
          "requests arriving at a set share of the machine's capacity (Poisson or on/off), each one's latency recorded",
          {{"requests", std::int64_t(20000), "requests in the run"},
           {"services", std::int64_t(8), "service actors the requests go to, round robin"},
           {"load", 0.5, "offered load: the share of capacity_workers x (1 s / service_ns) requests a second", 0.001, 100},
           {"service_ns", std::int64_t(10000), "mean CPU work per request, in nanoseconds"},
           {"service_dist", std::string("uniform"), "how a request's work is drawn: uniform (0.5-1.5 x the mean), exponential, constant", 1,
            std::numeric_limits<double>::infinity(), {"uniform", "exponential", "constant"}},
           {"arrivals", std::string("poisson"), "arrival process: poisson, or onoff (Poisson while on, silent while off, same mean rate)", 1,
            std::numeric_limits<double>::infinity(), {"poisson", "onoff"}},
           {"on_us", std::int64_t(2000), "onoff: microseconds of each on period"},
           {"off_us", std::int64_t(2000), "onoff: microseconds of each off period", 0},
           {"capacity_workers", std::int64_t(0), "workers the capacity counts (0: the run's)", 0, 1024}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<open_loop>(p, seed); }};
}

}  // namespace twinsched
