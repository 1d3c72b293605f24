// Savina's UCT (unbalanced cobwebbed tree): node actors ask the root whether they may have
// children; the root grants `binomial` children at random (some of them urgent) until the tree
// would pass `max_nodes`, then sends a traversal and a termination down the tree and exits.
#include <algorithm>
#include <cstdio>

#include "savina.hpp"
#include "uct.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_uct_impl {
namespace {

using namespace savina_uct;

enum : std::uint32_t {
  generate_tree_tag = 1,
  try_generate_tag,    // parent -> new child
  should_generate_tag, // node -> root: may I have children? (a: height)
  generate_tag,        // root -> node: yes (a: first id, b: computation size)
  urgent_generate_tag, // root -> node: yes, one of them urgent (a: first id, b: size, tag >> 8: the urgent one)
  update_grant_tag,    // node -> parent: I have children (a: my index)
  traverse_tag,
  terminate_tag,
};
constexpr std::uint32_t kind(const message& m) { return m.tag & 255; }

struct uct_setup {
  std::uint64_t max_nodes, avg_comp_size, stdev_comp_size, binomial, urgent_percent;
  double comp_ns;
};

/// What an actor sent and received. A request to the root after it exited, a grant to a node
/// already terminated and a node's news to a parent already terminated are dead letters, as in
/// Savina: counted, but left out of the prints on both sides; everything else reaches a live actor.
struct records {
  std::uint64_t sent = 0, sent_print = 0, received = 0;
  static bool may_be_dead(const message& m) {
    const std::uint32_t k = kind(m);
    return k == should_generate_tag || k == generate_tag || k == urgent_generate_tag || k == update_grant_tag;
  }
  static std::uint64_t print(const message& m) { return splitmix64(m.a ^ splitmix64(m.b + m.tag)); }
  void send(context& ctx, actor_ref to, const message& m) {
    ctx.send(to, m);
    ++sent;
    if (!may_be_dead(m)) sent_print += print(m);
  }
  void receive(const message& m) {
    if (!may_be_dead(m)) received += print(m);
  }
};

/// Savina's NodeActor.
class uct_node final : public behavior {
 public:
  uct_node(const uct_setup& s, actor_ref parent, actor_ref root, std::uint64_t height, std::uint64_t id,
           std::uint64_t comp, bool urgent)
      : s_(s), parent_(parent), root_(root), height_(height), id_(id), comp_(comp), urgent_(urgent) {}

  void receive(context& ctx, const message& m) override {
    rec_.receive(m);
    switch (kind(m)) {
      case try_generate_tag:  // Savina's loop(100, dummy) first
        if (s_.comp_ns > 0) ctx.burn_ns(std::uint64_t(100 * s_.comp_ns));
        rec_.send(ctx, root_, message{height_, 0, should_generate_tag});
        return;
      case generate_tag:
      case urgent_generate_tag: return generate(ctx, m);
      case update_grant_tag: has_grant_children_[m.a] = true; return;
      case traverse_tag:  // Savina's loop(compSize, dummy), then the children
        ++traversed_;
        if (s_.comp_ns > 0) ctx.burn_ns(std::uint64_t(double(comp_) * s_.comp_ns));
        for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, traverse_tag});
        return;
      default:
        ++terminated_;
        for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, terminate_tag});
        ctx.stop();
    }
  }

  records rec_;
  std::uint64_t traversed_ = 0, terminated_ = 0;
  std::vector<const uct_node*> kids_;
  std::uint64_t height() const { return height_; }

 private:
  /// Savina's generateChildren and generateUrgentChildren: tell the parent, spawn the children
  /// and have each ask the root in its turn.
  void generate(context& ctx, const message& m) {
    rec_.send(ctx, parent_, message{id_ % s_.binomial, 0, update_grant_tag});
    const bool urgent = kind(m) == urgent_generate_tag;
    urgent_child_ = urgent ? std::int64_t(m.tag >> 8) : -1;
    for (std::uint64_t i = 0; i < s_.binomial; ++i) {
      auto c = ctx.spawn_as<uct_node>({}, s_, ctx.self(), root_, height_ + 1, m.a + i, m.b,
                                      urgent && std::int64_t(i) == urgent_child_);
      children_.push_back(c.ref);
      kids_.push_back(&c.behavior);
    }
    has_grant_children_.assign(s_.binomial, false);
    for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, try_generate_tag});
  }

  const uct_setup& s_;
  actor_ref parent_, root_;
  std::uint64_t height_, id_, comp_;
  bool urgent_;
  std::int64_t urgent_child_ = -1;
  std::vector<actor_ref> children_;
  std::vector<bool> has_grant_children_;
};

/// Savina's RootActor.
class uct_root final : public behavior {
 public:
  uct_root(const uct_setup& s, std::uint64_t seed) : s_(s), r_(seed) {}

  void receive(context& ctx, const message& m) override {
    rec_.receive(m);
    switch (kind(m)) {
      case generate_tree_tag: {
        ++height_;
        const std::uint64_t comp = next_normal(r_, double(s_.avg_comp_size), double(s_.stdev_comp_size));
        for (std::uint64_t i = 0; i < s_.binomial; ++i) {
          auto c = ctx.spawn_as<uct_node>({}, s_, ctx.self(), ctx.self(), height_, size_ + i, comp, false);
          children_.push_back(c.ref);
          kids_.push_back(&c.behavior);
        }
        size_ += s_.binomial;
        has_grant_children_.assign(s_.binomial, false);
        for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, try_generate_tag});
        return;
      }
      case update_grant_tag: has_grant_children_[m.a] = true; return;
      case should_generate_tag: return decide(ctx, actor_ref(m.sender), m.a);
      default: return;
    }
  }

  records rec_;
  std::vector<const uct_node*> kids_;
  std::uint64_t size_ = 1, height_ = 1;
  bool done_ = false;

 private:
  /// Savina's checkGenerateChildrenRequest.
  void decide(context& ctx, actor_ref child, std::uint64_t child_height) {
    if (size_ + s_.binomial > s_.max_nodes) {
      for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, traverse_tag});
      for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, terminate_tag});
      done_ = true;
      ctx.stop();
      return;
    }
    if ((r_.next() >> 63) == 0) {  // no children
      height_ = std::max(height_, child_height);
      return;
    }
    const std::uint64_t comp = next_normal(r_, double(s_.avg_comp_size), double(s_.stdev_comp_size));
    if (r_.below(100) > s_.urgent_percent)
      rec_.send(ctx, child, message{size_, comp, generate_tag});
    else
      rec_.send(ctx, child, message{size_, comp, urgent_generate_tag | r_.below(std::uint32_t(s_.binomial)) << 8});
    size_ += s_.binomial;
    height_ = std::max(height_, child_height + 1);
  }

  const uct_setup& s_;
  rng r_;
  std::vector<actor_ref> children_;
  std::vector<bool> has_grant_children_;
};

/// Calls `f` on every node under `kids`, depth first, with its parent's traversal count.
template <class F>
void walk(const std::vector<const uct_node*>& kids, std::uint64_t parent_traversed, F&& f) {
  for (const uct_node* k : kids) {
    f(*k, parent_traversed);
    walk(k->kids_, k->traversed_, f);
  }
}

class uct final : public workload {
 public:
  uct(const workload_params& p, std::uint64_t seed)
      : s_{std::uint64_t(p.integer("max_nodes")), std::uint64_t(p.integer("avg_comp_size")),
           std::uint64_t(p.integer("stdev_comp_size")), std::uint64_t(p.integer("binomial_param")),
           std::uint64_t(p.integer("urgent_node_percent")), p.real("comp_ns")},
        seed_(seed) {}

  /// Savina's computation is charged only where comp_ns says (0 by default).
  bool burns() const override { return s_.comp_ns > 0; }

  void start(context& ctx) override {
    auto r = ctx.spawn_as<uct_root>({.name = "uct-root"}, s_, seed_);
    root_ = &r.behavior;
    ctx.send(r, message{0, 0, generate_tree_tag});
  }
  std::uint64_t checksum() const override {
    std::uint64_t sum = root_->rec_.received;
    walk(root_->kids_, 1, [&](const uct_node& n, std::uint64_t) { sum += n.rec_.received; });
    return sum;
  }
  /// The tree's shape depends on the order the requests reach the root: the prints of what
  /// the actors sent, and the injected start.
  std::uint64_t reference_checksum() const override {
    std::uint64_t sum = records::print(message{0, 0, generate_tree_tag}) + root_->rec_.sent_print;
    walk(root_->kids_, 1, [&](const uct_node& n, std::uint64_t) { sum += n.rec_.sent_print; });
    return sum;
  }
  /// Before the run an estimate (a node's request, traversal and termination, and its share of
  /// the grants); once the root ended the search, the start and what the actors sent.
  std::uint64_t expected_messages() const override {
    if (!root_ || !root_->done_) return 4 * s_.max_nodes;
    std::uint64_t sum = 1 + root_->rec_.sent;
    walk(root_->kids_, 1, [&](const uct_node& n, std::uint64_t) { sum += n.rec_.sent; });
    return sum;
  }
  bool result_ok() const override { return savina_uct::result_ok(s_.max_nodes, s_.binomial, outcome_of()); }
  std::string detail() const override {
    const outcome o = outcome_of();
    char buf[128];
    std::snprintf(buf, sizeof buf, "%llu nodes granted, %llu created, height %llu", (unsigned long long)(o.size - 1),
                  (unsigned long long)o.nodes, (unsigned long long)o.height);
    return buf;
  }
  footprint peak() const override { return {double(s_.max_nodes), double(s_.max_nodes), 0}; }

 private:
  outcome outcome_of() const {
    outcome o{root_->done_, root_->size_, 0, root_->height_, 0, true, true};
    walk(root_->kids_, 1, [&](const uct_node& n, std::uint64_t parent_traversed) {
      ++o.nodes;
      o.deepest = std::max(o.deepest, n.height());
      o.terminated_once = o.terminated_once && n.terminated_ == 1;
      o.traversals_ok = o.traversals_ok && n.traversed_ <= 1 && (n.traversed_ == 0 || parent_traversed == 1);
    });
    return o;
  }

  uct_setup s_;
  std::uint64_t seed_;
  uct_root* root_ = nullptr;
};

}  // namespace
}  // namespace savina_uct_impl

workload_info savina_uct_workload() {
  using namespace savina_uct_impl;
  return {"savina-uct",
          "Savina's UCT: node actors ask the root for children, which it grants at random until the "
          "tree is full; then a traversal and a termination sweep the tree",
          {{"max_nodes", std::int64_t(200000), "Savina's MAX_NODES: the tree stops growing before passing it", 2,
            1e8},
           {"avg_comp_size", std::int64_t(500), "Savina's AVG_COMP_SIZE: mean computation size of a node"},
           {"stdev_comp_size", std::int64_t(100), "Savina's STDEV_COMP_SIZE: its standard deviation", 0},
           {"binomial_param", std::int64_t(10), "Savina's BINOMIAL_PARAM: children a node gets, if any", 1, 1e4},
           {"urgent_node_percent", std::int64_t(50), "Savina's URGENT_NODE_PERCENT: grants with an urgent child", 0,
            100},
           {"comp_ns", 0.0,
            "work per unit of computation size, ns (a node's request costs 100 units, its traversal its "
            "size); Savina's loop discards its result, which the JIT removes, hence 0",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<uct>(p, seed); }};
}

}  // namespace twinsched
