// Savina's Sieve: a producer streams the odd numbers through a growing chain of filter actors,
// each holding up to m primes; a number no filter divides is a new prime, kept by the last
// filter or, once it is full, by a new filter it spawns at the end of the chain.
#include <cstdio>
#include <vector>

#include "savina.hpp"
#include "sieve.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_sieve_impl {
namespace {

using namespace savina_sieve;

enum : std::uint32_t { start_tag = 1, candidate_tag = 2, exit_tag = 3 };

struct sieve_setup {
  std::uint64_t n, m;
  double division_ns;
  // what the last filter finds, read after the run
  std::uint64_t primes = 0, print = 0, filters = 0;
  bool done = false;
};

/// Savina's PrimeFilterActor. The end marker carries the prints of the actors it passed, so the
/// last filter ends up with every actor's.
class prime_filter final : public behavior {
 public:
  prime_filter(sieve_setup& s, std::uint64_t index, std::uint64_t first_prime) : s_(s), index_(index) {
    primes_.reserve(s.m);
    primes_.push_back(first_prime);
  }
  void receive(context& ctx, const message& m) override {
    if (m.tag == candidate_tag) {
      print_ += candidate_print(index_, m.a);
      std::uint64_t divisions = 0;
      const bool prime = locally_prime(m.a, primes_.data(), primes_.size(), divisions);
      ctx.did_work_ns(std::uint64_t(double(divisions) * s_.division_ns));
      if (!prime) return;
      if (next_)
        ctx.send(next_, message{m.a, 0, candidate_tag});
      else if (primes_.size() < s_.m)
        primes_.push_back(m.a);
      else
        next_ = ctx.spawn_as<prime_filter>({.state_bytes = std::uint32_t(8 * s_.m)}, s_, index_ + 1, m.a);
      return;
    }
    print_ += exit_print(index_);
    if (next_) {
      ctx.send(next_, message{0, m.b + print_, exit_tag});
    } else {
      s_.primes = index_ * s_.m + primes_.size();
      s_.print = m.b + print_;
      s_.filters = index_ + 1;
      s_.done = true;
    }
    ctx.stop();
  }

 private:
  sieve_setup& s_;
  std::uint64_t index_;
  std::vector<std::uint64_t> primes_;
  actor_ref next_;
  std::uint64_t print_ = 0;
};

/// Savina's NumberProducerActor: every odd number from 3 below n, then the end marker.
class number_producer final : public behavior {
 public:
  number_producer(const sieve_setup& s, actor_ref first) : s_(s), first_(first) {}
  void receive(context& ctx, const message&) override {
    for (std::uint64_t c = 3; c < s_.n; c += 2) ctx.send(first_, message{c, 0, candidate_tag});
    ctx.send(first_, message{0, start_print(), exit_tag});
    ctx.stop();
  }

 private:
  const sieve_setup& s_;
  actor_ref first_;
};

class sieve final : public savina_workload {
 public:
  explicit sieve(const workload_params& p)
      : s_{std::uint64_t(p.integer("n")), std::uint64_t(p.integer("m")), p.real("division_ns")},
        ref_(run_sequentially(s_.n, s_.m)) {}

  void start(context& ctx) override {
    auto first = ctx.spawn_as<prime_filter>({.name = "sieve-filter-1", .state_bytes = std::uint32_t(8 * s_.m)}, s_,
                                            std::uint64_t(0), std::uint64_t(2));
    ctx.send(ctx.spawn_as<number_producer>({.name = "sieve-producer"}, s_, first.ref), message{0, 0, start_tag});
  }
  std::uint64_t checksum() const override { return s_.print; }
  std::uint64_t reference_checksum() const override { return ref_.print; }
  std::uint64_t expected_messages() const override { return ref_.messages; }
  bool result_ok() const override { return s_.done && savina_sieve::result_ok(s_.n, s_.primes); }
  std::string detail() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%llu primes below %llu, in %llu filters", (unsigned long long)s_.primes,
                  (unsigned long long)s_.n, (unsigned long long)s_.filters);
    return buf;
  }
  /// The producer sends every number before the first filter has taken many.
  footprint peak() const override {
    return {double(ref_.filters) + 1, double(s_.n) / 2, 8.0 * double(s_.m) * double(ref_.filters)};
  }

 private:
  sieve_setup s_;
  reference ref_;
};

/// The kernel: trial divisions, as the filters make them (the candidate modulo each local prime).
std::uint64_t divisions(std::uint64_t units) {
  static const std::vector<std::uint64_t> primes = primes_below(7920);  // the first 1000
  std::uint64_t made = 0, kept = 0;
  for (std::uint64_t c = 7921; made < units; c += 2) kept += locally_prime(c, primes.data(), primes.size(), made);
  return kept + made;
}

}  // namespace
}  // namespace savina_sieve_impl

workload_info savina_sieve_workload() {
  using namespace savina_sieve_impl;
  return {"savina-sieve",
          "Savina's Sieve: the odd numbers stream through a chain of filter actors that grows by one "
          "actor whenever the last filter's primes are full",
          {{"n", std::int64_t(100000), "Savina's N: count the primes below it", 3, 1e8},
           {"m", std::int64_t(1000), "Savina's M: primes a filter actor holds", 1, 1e6},
           {"division_ns", 1.8,
            "simulation only: modeled cost of one trial division, ns (unset: the machine model's calibrated "
            "savina_sieve_division, else 1.8: calibrate on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<sieve>(p); },
          {{"savina_sieve_division", "division_ns", divisions}}};
}

}  // namespace twinsched
