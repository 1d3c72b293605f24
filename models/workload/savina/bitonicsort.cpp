// Savina's BitonicSort: a bitonic sorting network built of actors, StreamIt style. A source streams
// n random values, then an exit, into the network; each value passes merge stage after merge stage,
// each step a splitter dealing runs to branches (partitions of compare-exchange actors) and a joiner
// collecting their output back in round-robin order; the sorted stream reaches a validator. Every
// actor forwards the exit and stops. The network is one table (bitonicsort.hpp), an actor per row.
#include <bit>
#include <cstdio>
#include <optional>
#include <vector>

#include "../../config.hpp"
#include "bitonicsort.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_bitonicsort_impl {
namespace {
using namespace savina_bitonicsort;

struct setup {
  network net;
  std::vector<std::uint64_t> input, out;
  std::vector<actor_ref> refs;
};

class net_actor final : public behavior {
 public:
  net_actor(setup& s, std::uint32_t self) : s_(s), self_(self) {}
  void receive(context& ctx, const message& m) override {
    acc_ += message_value(self_, m);
    const bool done = step(s_.net, self_, st_, m, s_.input, s_.out, [&](std::uint32_t to, const message& x) {
      ctx.send(s_.refs[to], message{x.a, x.b, x.tag});
    });
    if (done) ctx.stop();
  }
  std::uint64_t acc() const { return acc_; }

 private:
  setup& s_;
  std::uint32_t self_;
  state st_;
  std::uint64_t acc_ = 0;
};

class bitonicsort final : public savina_workload {
 public:
  bitonicsort(const workload_params& p, std::uint64_t seed)
      : n_(std::uint64_t(p.integer("n"))), m_(std::uint64_t(p.integer("m"))), seed_(seed) {
    // Savina's network halves the sequence at every step.
    if (!std::has_single_bit(n_)) throw config_error("savina-bitonicsort: n must be a power of two");
  }

  void start(context& ctx) override {
    s_.net = build(std::uint32_t(n_));
    s_.input = savina_radixsort::input(n_, m_, seed_);
    s_.out.reserve(n_);
    savina::spawn_each(ctx, std::uint32_t(s_.net.nodes.size()), actors_, s_.refs, s_);
    ctx.send(s_.refs[0], message{0, 0, start_tag});
  }

  std::uint64_t checksum() const override { return sum_of_acc(actors_); }
  std::uint64_t reference_checksum() const override { return reference().acc; }
  std::uint64_t expected_messages() const override { return reference().messages; }
  /// Savina's check (the values in order) and more: the validator got the input, sorted.
  bool result_ok() const override { return savina_radixsort::sorted_permutation_ok(s_.out, s_.input); }
  /// log2(n)(log2(n) + 1)/2 steps, each of n/2 compare-exchanges and about as many again of
  /// splitters, joiners and adapters (241984 actors for n = 4096); the source sends every value at once.
  footprint peak() const override {
    const double b = double(std::bit_width(n_) - 1), actors = 0.8 * double(n_) * b * (b + 1) / 2 + 4;
    return {actors, double(n_) + actors, 160.0 * actors};
  }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%zu values sorted by %zu actors", s_.out.size(), s_.net.nodes.size());
    return buf;
  }

 private:
  /// The same network run sequentially on the same input, once.
  const run_result& reference() const {
    if (!ref_) {
      const network net = build(std::uint32_t(n_));
      ref_ = run_sequentially(net, savina_radixsort::input(n_, m_, seed_));
    }
    return *ref_;
  }
  std::uint64_t n_, m_, seed_;
  setup s_;
  std::vector<net_actor*> actors_;
  mutable std::optional<run_result> ref_;
};

}  // namespace
}  // namespace savina_bitonicsort_impl

workload_info savina_bitonicsort_workload() {
  using namespace savina_bitonicsort_impl;
  return {"savina-bitonicsort",
          "Savina BitonicSort: values stream through a bitonic sorting network of splitter, compare and joiner actors",
          {{"n", std::int64_t(4096), "values sorted, a power of two (Savina's N)", 1, 1 << 20},
           {"m", std::int64_t(1) << 60, "values are below this (Savina's M)", 1}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<bitonicsort>(p, seed); }};
}

}  // namespace twinsched
