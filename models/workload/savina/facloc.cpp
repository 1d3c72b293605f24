// Savina's FacLoc (online facility location): a producer streams customers, one at a time, into
// a root quadrant actor. A quadrant whose customers cost more than a threshold (the sum of each
// one's distance to the nearest facility it knows) opens its facility and splits into four child
// quadrants, which take over its customers; an open quadrant routes each customer to the child
// whose box holds it, and every opening is announced up the tree and across to the opposite
// sibling's subtree.
#include <cstdio>
#include <cstring>
#include <vector>

#include "facloc.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_facloc_impl {
namespace {

using namespace savina_facloc;

enum : std::uint32_t { start_tag = 1, customer_tag, facility_tag, next_tag, exit_request_tag, exit_confirm_tag };
/// A facility message's tag: the kind, whether it comes from a child, the sender's position
/// (Savina's Position + 2: unknown, root, top left, top right, bottom left, bottom right) and depth.
constexpr std::uint32_t facility(bool from_child, int position, std::uint32_t depth) {
  return facility_tag | std::uint32_t(from_child) << 4 | std::uint32_t(position + 2) << 5 | depth << 8;
}
enum : int { unknown = -2, root = -1, top_left = 0, top_right = 1, bottom_left = 2, bottom_right = 3 };

std::uint64_t word(double d) {
  std::uint64_t w;
  std::memcpy(&w, &d, 8);
  return w;
}
double real(std::uint64_t w) {
  double d;
  std::memcpy(&d, &w, 8);
  return d;
}

struct facloc_setup {
  std::uint64_t customers;
  double grid, threshold, distance_ns;
};

/// What an actor sent and received. A facility announced down the tree may reach a quadrant
/// that already exited (a dead letter, as in Savina): those are counted but not printed on
/// either side; every other message reaches a live actor.
struct records {
  std::uint64_t sent = 0, sent_print = 0, received = 0;
  static bool may_be_dead(const message& m) { return (m.tag & 15) == facility_tag && (m.tag >> 4 & 1) == 0; }
  void send(context& ctx, actor_ref to, const message& m) {
    ctx.send(to, m);
    ++sent;
    if (!may_be_dead(m)) sent_print += print(m.a, m.b, m.tag);
  }
  void receive(const message& m) {
    if (!may_be_dead(m)) received += print(m.a, m.b, m.tag);
  }
};

/// Savina's QuadrantActor.
class quadrant final : public behavior {
 public:
  /// Builds the quadrant with the customers of `inherited` its box holds (a split's share); the
  /// distances this computes are added to `units`.
  quadrant(const facloc_setup& s, actor_ref parent, int position, box boundary, std::uint32_t depth,
           const std::vector<point>& facilities, std::uint64_t known, const std::vector<point>& inherited,
           std::uint64_t& units)
      : known_(known), s_(s), parent_(parent), position_(position), boundary_(boundary), depth_(depth),
        local_(facilities) {
    local_.push_back(boundary.mid());
    for (const point& p : inherited)
      if (boundary_.contains(p)) add_customer(p, units);
  }

  void receive(context& ctx, const message& m) override {
    rec_.receive(m);
    std::uint64_t units = 0;
    switch (m.tag & 15) {
      case customer_tag: {
        const point p{real(m.a), real(m.b)};
        if (!open()) {
          add_customer(p, units);
          if (cost_ > s_.threshold) split(ctx, units);
        } else {
          for (int i = 0; i < 4; ++i)
            if (boxes_[i].contains(p)) {
              rec_.send(ctx, children_[i], message{m.a, m.b, customer_tag});
              break;
            }
        }
        if (!parent_) rec_.send(ctx, actor_ref(m.sender), message{0, 0, next_tag});  // to the producer
        break;
      }
      case facility_tag: {
        const bool from_child = m.tag >> 4 & 1;
        const int child = int(m.tag >> 5 & 7) - 2;
        ++known_;
        local_.push_back({real(m.a), real(m.b)});
        if (from_child) {
          if (parent_) rec_.send(ctx, parent_, message{m.a, m.b, facility(true, position_, m.tag >> 8)});
          static constexpr int opposite[] = {bottom_right, bottom_left, top_right, top_left};
          rec_.send(ctx, children_[opposite[child]], message{m.a, m.b, facility(false, unknown, depth_)});
        } else if (open()) {
          for (actor_ref c : children_) rec_.send(ctx, c, message{m.a, m.b, facility(false, unknown, depth_)});
        }
        break;
      }
      case exit_request_tag:
        if (!open()) return exit(ctx);
        for (actor_ref c : children_) rec_.send(ctx, c, message{0, 0, exit_request_tag});
        break;
      default:  // a child's exit confirmation
        children_facilities_ += m.a;
        children_customers_ += m.b;
        if (++confirmed_ == 4) exit(ctx);
    }
    ctx.did_work_ns(std::uint64_t(double(units) * s_.distance_ns));
  }

  bool open() const { return kids_[0] != nullptr; }
  records rec_;
  std::uint64_t known_;
  std::uint64_t facilities_reported_ = 0, customers_reported_ = 0;
  bool exited_ = false;

  /// Adds the customers the leaves under it serve to `o`.
  void gather(outcome& o) const {
    if (open()) {
      for (const quadrant* k : kids_) k->gather(o);
      return;
    }
    for (const point& p : customers_) {
      o.served.push_back(p);
      o.in_their_boxes = o.in_their_boxes && boundary_.contains(p);
    }
  }
  /// Applies `f` to every quadrant's records under it, its own included.
  template <class F>
  void each_record(F&& f) const {
    f(rec_);
    if (open())
      for (const quadrant* k : kids_) k->each_record(f);
  }

 private:
  void add_customer(const point& p, std::uint64_t& units) {
    customers_.push_back(p);
    cost_ += cost(p, local_, units);
  }

  /// Savina's partition: announce the opening up the tree, then four children take the customers.
  void split(context& ctx, std::uint64_t& units) {
    const point f = boundary_.mid();
    if (parent_) rec_.send(ctx, parent_, message{word(f.x), word(f.y), facility(true, position_, depth_)});
    const box& b = boundary_;
    boxes_[top_left] = {b.x1, f.y, f.x, b.y2};
    boxes_[top_right] = {f.x, f.y, b.x2, b.y2};
    boxes_[bottom_left] = {b.x1, b.y1, f.x, f.y};
    boxes_[bottom_right] = {f.x, b.y1, b.x2, f.y};
    for (int i = 0; i < 4; ++i) {
      auto c = ctx.spawn_as<quadrant>({.state_bytes = 1024}, s_, ctx.self(), i, boxes_[i], depth_ + 1, local_, known_,
                                      customers_, units);
      children_[i] = c.ref;
      kids_[i] = &c.behavior;
    }
    customers_.clear();
  }

  /// Savina's safelyExit: the counts of the subtree to the parent (the root keeps them).
  void exit(context& ctx) {
    const std::uint64_t facilities = children_facilities_ + (open() || !parent_ ? 1 : 0);
    const std::uint64_t customers = children_customers_ + customers_.size();
    if (parent_) {
      rec_.send(ctx, parent_, message{facilities, customers, exit_confirm_tag});
    } else {
      facilities_reported_ = facilities;
      customers_reported_ = customers;
      exited_ = true;
    }
    ctx.stop();
  }

  const facloc_setup& s_;
  actor_ref parent_;
  int position_;
  box boundary_;
  std::uint32_t depth_;
  std::vector<point> local_, customers_;
  double cost_ = 0;
  actor_ref children_[4];
  quadrant* kids_[4] = {};
  box boxes_[4] = {};
  std::uint64_t children_facilities_ = 0, children_customers_ = 0, confirmed_ = 0;
};

/// Savina's ProducerActor: a customer at the start and after each request of the root's, then
/// the request to exit.
class producer final : public behavior {
 public:
  producer(const std::vector<point>& customers, actor_ref root) : customers_(customers), root_(root) {}
  void receive(context& ctx, const message& m) override {
    rec_.receive(m);
    if (next_ < customers_.size()) {
      const point& p = customers_[next_++];
      rec_.send(ctx, root_, message{word(p.x), word(p.y), customer_tag});
      return;
    }
    rec_.send(ctx, root_, message{0, 0, exit_request_tag});
    ctx.stop();
  }
  records rec_;

 private:
  const std::vector<point>& customers_;
  actor_ref root_;
  std::uint64_t next_ = 0;
};

class facloc final : public savina_workload {
 public:
  facloc(const workload_params& p, std::uint64_t seed)
      : s_{std::uint64_t(p.integer("num_points")), p.real("grid_size"),
           p.real("alpha") * std::sqrt(2.0) * p.real("grid_size"), p.real("distance_ns")},
        customers_(savina_facloc::customers(s_.customers, s_.grid, seed)) {}

  void start(context& ctx) override {
    std::uint64_t units = 0;
    auto r = ctx.spawn_as<quadrant>({.name = "facloc-root", .state_bytes = 1024}, s_, actor_ref(), int(root),
                                    box{0, 0, s_.grid, s_.grid}, 0u, std::vector<point>{}, std::uint64_t(1),
                                    std::vector<point>{}, units);
    root_ = &r.behavior;
    auto p = ctx.spawn_as<producer>({.name = "facloc-producer"}, customers_, r.ref);
    producer_ = &p.behavior;
    ctx.send(p, message{0, 0, start_tag});
  }
  std::uint64_t checksum() const override {
    std::uint64_t sum = producer_->rec_.received;
    root_->each_record([&](const records& r) { sum += r.received; });
    return sum;
  }
  /// Which quadrants open, and so which messages travel, depends on the interleaving: the
  /// prints of what the actors sent (and the injected start).
  std::uint64_t reference_checksum() const override {
    std::uint64_t sum = print(0, 0, start_tag) + producer_->rec_.sent_print;
    root_->each_record([&](const records& r) { sum += r.sent_print; });
    return sum;
  }
  /// Before the run an estimate (each customer, a request for the next and a hop or two down);
  /// once the root exited, the start and what the actors sent.
  std::uint64_t expected_messages() const override {
    if (!root_ || !root_->exited_) return 4 * s_.customers + 2;
    std::uint64_t sum = 1 + producer_->rec_.sent;
    root_->each_record([&](const records& r) { sum += r.sent; });
    return sum;
  }
  bool result_ok() const override { return root_->exited_ && savina_facloc::result_ok(customers_, outcome_of()); }
  std::string detail() const override {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%llu facilities serve %llu customers", (unsigned long long)root_->facilities_reported_,
                  (unsigned long long)root_->customers_reported_);
    return buf;
  }
  footprint peak() const override { return {double(s_.customers) / 16, double(s_.customers), 64.0 * double(s_.customers)}; }

 private:
  outcome outcome_of() const {
    outcome o;
    o.facilities = root_->facilities_reported_;
    o.known = root_->known_;
    o.customers_reported = root_->customers_reported_;
    o.in_their_boxes = true;
    root_->gather(o);
    return o;
  }

  facloc_setup s_;
  std::vector<point> customers_;
  quadrant* root_ = nullptr;
  producer* producer_ = nullptr;
};

/// The kernel: findCost's distances, from random customers to 64 facilities.
std::uint64_t distances(std::uint64_t units) {
  const std::vector<point> facilities = customers(64, 500, 1), points = customers(1024, 500, 2);
  std::uint64_t made = 0;
  double sum = 0;
  for (std::uint64_t i = 0; made < units; ++i) sum += cost(points[i % points.size()], facilities, made);
  return made + std::uint64_t(sum);
}

}  // namespace
}  // namespace savina_facloc_impl

workload_info savina_facloc_workload() {
  using namespace savina_facloc_impl;
  return {"savina-facloc",
          "Savina's FacLoc: customers stream into a tree of quadrant actors that split into four when "
          "their customers' distance to the nearest facility grows too large",
          {{"num_points", std::int64_t(100000), "Savina's NUM_POINTS: customers the producer sends", 1, 1e8},
           {"grid_size", 500.0, "Savina's GRID_SIZE: the side of the square the customers lie in", 1e-6},
           {"alpha", 2.0, "Savina's ALPHA: a quadrant splits above alpha * sqrt(2) * grid_size", 1e-6},
           {"distance_ns", 4.0,
            "simulation only: modeled cost of one customer-to-facility distance, ns (unset: the machine "
            "model's calibrated savina_facloc_distance, else 4)",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<facloc>(p, seed); },
          {{"savina_facloc_distance", "distance_ns", distances}}};
}

}  // namespace twinsched
