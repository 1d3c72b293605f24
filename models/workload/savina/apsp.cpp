// Savina's APSP: Floyd-Warshall over an n-node graph cut into (n/b)^2 blocks, an actor per block.
// Each actor first sends its block to the actors of its block row and block column; whenever it
// holds all of their blocks from the previous iteration it computes its next one and sends that,
// n iterations in all. A block travels as a pointer to one shared, reference-counted array (Savina
// sends one array object to every neighbor).
#include <cstdio>
#include <utility>
#include <vector>

#include "../../config.hpp"
#include "apsp.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_apsp_impl {
namespace {
using namespace savina_apsp;

enum tag : std::uint32_t { neighbors_tag = 1, initial_tag, result_tag };

struct setup {
  std::uint32_t n, b, per_dim;  ///< nodes, block side, blocks per side
  double relax_ns;
  std::vector<std::int64_t> graph;
  std::vector<actor_ref> refs;  ///< by block id, row by row
  std::uint32_t neighbors() const { return 2 * (per_dim - 1); }
};

/// What a message adds to its receiver's sum: its kind, sender and round.
inline std::uint64_t message_value(std::uint32_t self, std::uint32_t t, std::uint64_t src, std::uint64_t round) {
  return splitmix64(splitmix64(std::uint64_t(t) << 56 ^ src) ^ round << 32 ^ self);
}

class block_actor final : public behavior {
 public:
  block_actor(const setup& s, std::uint32_t id) : s_(s), id_(id), bi_(id / s.per_dim), bj_(id % s.per_dim) {
    own_ = std::make_shared<const block>(block{block_of(s.graph, s.n, s.b, bi_, bj_)});
    for (auto& r : rounds_) r.from.assign(std::size_t(s.per_dim) * s.per_dim, nullptr);
  }

  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case neighbors_tag:  // the neighbors follow from the block id (Savina sends their list)
        acc_ += message_value(id_, m.tag, 0, 0);
        has_neighbors_ = true;
        break;
      case initial_tag:
        acc_ += message_value(id_, m.tag, 0, 0);
        notify(ctx);
        break;
      default: on_result(ctx, m); break;
    }
  }

  std::uint64_t acc() const { return acc_; }
  const block* result() const { return own_.get(); }

 private:
  /// The blocks of one round (the iteration whose output they are), by sender.
  struct round {
    std::vector<block_ref> from;
    std::uint32_t count = 0;
  };

  /// Round r holds the blocks iteration r - 1 made (round 0: the graph). A neighbor is at most one
  /// round ahead (its next block needs this one's), so two rounds are kept, by parity; the last
  /// round, n, is needed by no one.
  void on_result(context& ctx, const message& m) {
    const std::uint32_t src = std::uint32_t(m.b >> 32), r = std::uint32_t(m.b);
    block_ref p = std::move(*std::unique_ptr<block_ref>(reinterpret_cast<block_ref*>(m.a)));  // its reference
    acc_ += message_value(id_, m.tag, src, r);
    if (!has_neighbors_) ++errors_;
    if (r == s_.n || r < k_ + 1 || r > k_ + 2) {
      if (r != s_.n) ++errors_;
      return;
    }
    round& rd = rounds_[r & 1];
    if (rd.from[src]) ++errors_;
    rd.from[src] = std::move(p);
    ++rd.count;
    // Savina: with every neighbor's block of the round, compute the next iteration and send it.
    while (k_ + 1 < s_.n && rounds_[(k_ + 1) & 1].count == s_.neighbors()) {
      ++k_;
      compute(rounds_[k_ & 1], k_);
      notify(ctx);
      ctx.did_work_ns(std::uint64_t(double(s_.b) * s_.b * s_.relax_ns));
    }
  }

  /// Iteration k from round k's blocks (this one's own the previous result).
  void compute(round& rd, std::uint32_t k) {
    const std::uint32_t kb = k / s_.b, kl = k % s_.b;
    auto at = [&](std::uint32_t bi, std::uint32_t bj) {
      const std::uint32_t id = bi * s_.per_dim + bj;
      return id == id_ ? own_->d.data() : rd.from[id]->d.data();
    };
    std::vector<std::int64_t> next(std::size_t(s_.b) * s_.b);
    relax(own_->d.data(), at(bi_, kb), kl, at(kb, bj_), kl, next.data(), s_.b);
    for (block_ref& p : rd.from) p.reset();
    rd.count = 0;
    own_ = std::make_shared<const block>(block{std::move(next)});
  }

  /// Sends this block, as iteration k_ left it, to every actor of its block row and column.
  /// Iteration k (this round's) reads row k of the blocks in block row k / b and column k of
  /// those in block column k / b: what the receivers read of this one (send_data), a row (b
  /// values, contiguous) down its column or a column (a line for each of b rows) along its row,
  /// where it lies in that block row or column, else nothing but the reference.
  void notify(context& ctx) {
    const std::uint32_t next = k_ + 1, kb = next / s_.b;
    const std::uint64_t word = std::uint64_t(id_) << 32 | next;
    const bool used = next < s_.n;
    const std::uint32_t row_bytes = used && bi_ == kb ? s_.b * 8 : 0, column_bytes = used && bj_ == kb ? s_.b * 64 : 0;
    for (std::uint32_t r = 0; r < s_.per_dim; ++r)
      if (r != bi_)
        ctx.send_data(s_.refs[r * s_.per_dim + bj_], message{std::uint64_t(new block_ref(own_)), word, result_tag}, row_bytes);
    for (std::uint32_t c = 0; c < s_.per_dim; ++c)
      if (c != bj_)
        ctx.send_data(s_.refs[bi_ * s_.per_dim + c], message{std::uint64_t(new block_ref(own_)), word, result_tag},
                      column_bytes);
  }

  const setup& s_;
  std::uint32_t id_, bi_, bj_;
  std::uint32_t k_ = std::uint32_t(-1);  ///< the last iteration computed (Savina's k, from -1)
  block_ref own_;
  round rounds_[2];
  bool has_neighbors_ = false;

 public:
  std::uint64_t acc_ = 0, errors_ = 0;
  std::uint32_t done() const { return k_ + 1; }
};

class apsp final : public savina_workload {
 public:
  apsp(const workload_params& p, std::uint64_t seed) : seed_(seed) {
    s_.n = std::uint32_t(p.integer("n"));
    s_.b = std::uint32_t(p.integer("b"));
    w_ = std::uint32_t(p.integer("w"));
    s_.relax_ns = p.real("relax_ns");
    if (s_.n % s_.b != 0 || s_.n / s_.b < 2)
      throw config_error("savina-apsp: n must be a multiple of b, at least 2 blocks a side");
    s_.per_dim = s_.n / s_.b;
  }

  void start(context& ctx) override {
    s_.graph = graph(s_.n, w_, seed_);
    savina::spawn_each(ctx, std::uint32_t(s_.per_dim * s_.per_dim), actors_, s_.refs, s_);
    for (actor_ref r : s_.refs) ctx.send(r, message{0, 0, neighbors_tag});
    for (actor_ref r : s_.refs) ctx.send(r, message{0, 0, initial_tag});
  }

  std::uint64_t checksum() const override {
    std::uint64_t acc = 0;
    for (const block_actor* a : actors_) acc += a->acc_;
    return acc;
  }
  /// Every actor gets the neighbors and the start, and from each neighbor its rounds 0 .. n.
  std::uint64_t reference_checksum() const override {
    std::uint64_t acc = 0;
    const std::uint32_t d = s_.per_dim;
    for (std::uint32_t id = 0; id < d * d; ++id) {
      acc += message_value(id, neighbors_tag, 0, 0) + message_value(id, initial_tag, 0, 0);
      for (std::uint32_t src = 0; src < d * d; ++src)
        if (src != id && (src / d == id / d || src % d == id % d))
          for (std::uint64_t r = 0; r <= s_.n; ++r) acc += message_value(id, result_tag, src, r);
    }
    return acc;
  }
  std::uint64_t expected_messages() const override {
    const std::uint64_t blocks = std::uint64_t(s_.per_dim) * s_.per_dim;
    return 2 * blocks + blocks * s_.neighbors() * (s_.n + 1);
  }
  /// Every block ran all n iterations, no message came early, late or twice, and the blocks
  /// together are the sequential Floyd-Warshall's distances.
  bool result_ok() const override {
    std::vector<std::int64_t> all(std::size_t(s_.n) * s_.n);
    for (std::uint32_t id = 0; id < actors_.size(); ++id) {
      const block_actor& a = *actors_[id];
      if (a.errors_ || a.done() != s_.n) return false;
      for (std::size_t i = 0; i < s_.b; ++i)
        for (std::size_t j = 0; j < s_.b; ++j)
          all[((id / s_.per_dim) * s_.b + i) * s_.n + (id % s_.per_dim) * s_.b + j] = a.result()->d[i * s_.b + j];
    }
    return distances_ok(all, floyd_warshall(graph(s_.n, w_, seed_), s_.n));
  }
  /// Each actor holds its block and up to two rounds of its neighbors' (shared with their senders).
  footprint peak() const override {
    const double blocks = double(s_.per_dim) * s_.per_dim;
    return {blocks, 2 * blocks * s_.neighbors(), 8.0 * 4 * double(s_.n) * s_.n};
  }
  std::string detail() const override {
    std::int64_t longest = 0;
    for (const block_actor* a : actors_)
      for (std::int64_t x : a->result()->d) longest = std::max(longest, x);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%u x %u blocks of %u nodes, longest shortest path %lld", s_.per_dim,
                  s_.per_dim, s_.b, (long long)longest);
    return buf;
  }

 private:
  setup s_{};
  std::uint32_t w_ = 0;
  std::uint64_t seed_;
  std::vector<block_actor*> actors_;
};

}  // namespace
}  // namespace savina_apsp_impl

workload_info savina_apsp_workload() {
  using namespace savina_apsp_impl;
  return {"savina-apsp",
          "Savina APSP: Floyd-Warshall by blocks, an actor per block trading its block with its row and column",
          {{"n", std::int64_t(300), "graph nodes (Savina's N)", 2, 1 << 14},
           {"b", std::int64_t(50), "block side; n must be a multiple, with at least 2 blocks a side (Savina's B)"},
           {"w", std::int64_t(100), "edge weights are 1 .. w (Savina's W)", 1, 1 << 30},
           {"relax_ns", 0.43,
            "simulation only: modeled ns per relaxation min(d, d_ik + d_kj) (unset: the machine's calibrated "
            "savina_apsp_relax, else 0.43: 50 x 50 blocks at -O2 on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<apsp>(p, seed); },
          {{"savina_apsp_relax", "relax_ns", [](std::uint64_t units) {
              constexpr std::uint32_t b = 50;
              static const std::vector<std::int64_t> g = graph(2 * b, 100, 1);
              static const std::vector<std::int64_t> prev = block_of(g, 2 * b, b, 0, 1),
                                                     col = block_of(g, 2 * b, b, 0, 0), row = block_of(g, 2 * b, b, 1, 1);
              std::vector<std::int64_t> out(b * b);
              std::uint64_t kept = 0;
              for (std::uint64_t it = 0; it < units / (b * b); ++it) {
                relax(prev.data(), col.data(), it % b, row.data(), (it * 7) % b, out.data(), b);
                kept += std::uint64_t(out[it % (b * b)]);
              }
              return kept;
            }}}};
}

}  // namespace twinsched
