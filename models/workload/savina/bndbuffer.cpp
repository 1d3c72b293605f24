// Savina's BndBuffer: `producers` producers each compute `items` items (processItem: `prodcost`
// x 100 log terms) and send them to a manager that keeps a bounded buffer; the manager hands an
// item to an idle consumer (who spends `conscost` x 100 log terms on it and reports back) or
// buffers it, and while the buffer is full it holds a producer's next ProduceData back. When every
// producer has exited and every consumer is idle the manager ends the consumers. Measures a
// central coordinator under a producer-consumer load with flow control.
#include <cstdio>
#include <deque>

#include "../../config.hpp"
#include "bndbuffer.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_bndbuffer_impl {
namespace {
using namespace savina_bndbuffer;

struct setup {
  std::uint64_t buffer_size, producers, consumers, items, prod_cost, cons_cost;
  double log_ns;
  actor_ref manager;
};

/// What a producer and a consumer share: Savina's processItem on a running item, which the
/// simulator charges as its log terms, and the actor's checksum term.
class party : public behavior {
 public:
  std::uint64_t acc() const { return acc_; }

 protected:
  party(const setup& s, std::uint64_t id) : s_(s), id_(id) {}
  /// The item becomes processItem(v) at `cost` x 100 log terms.
  void process(context& ctx, double v, std::uint64_t cost) {
    item_ = process_item(v, cost);
    ctx.did_work_ns(std::uint64_t(double(terms(cost)) * s_.log_ns));
  }

  const setup& s_;
  std::uint64_t id_, acc_ = 0;
  double item_ = 0;
};

class producer final : public party {
 public:
  producer(const setup& s, std::uint64_t id) : party(s, id) {}
  void receive(context& ctx, const message&) override {
    acc_ += print(produce, (id_ << 32) | produced_);
    if (produced_ == s_.items) {
      ctx.send(s_.manager, message{id_, 0, producer_exit});
      ctx.stop();
      return;
    }
    process(ctx, item_, s_.prod_cost);
    ctx.send(s_.manager, message{std::bit_cast<std::uint64_t>(item_), (id_ << 32) | produced_, data_item});
    ++produced_;
  }
  std::uint64_t produced_ = 0;
};

class consumer final : public party {
 public:
  consumer(const setup& s, std::uint64_t id) : party(s, id) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == consumer_exit) {
      acc_ += print(consumer_exit, id_);
      ctx.stop();
      return;
    }
    const double v = std::bit_cast<double>(m.a);
    acc_ += item_print(m.b >> 32, std::uint32_t(m.b), v);
    process(ctx, item_ + v, s_.cons_cost);
    ++consumed_;
    ctx.send(s_.manager, message{0, 0, consumer_available});
  }
  std::uint64_t consumed_ = 0;
};

class manager final : public behavior {
 public:
  manager(const setup& s, std::vector<actor_ref> consumers)
      : s_(s), consumers_(std::move(consumers)), idle_(consumers_.begin(), consumers_.end()) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == data_item) {
      acc_ += item_print(m.b >> 32, std::uint32_t(m.b), std::bit_cast<double>(m.a));
      if (idle_.empty()) {
        pending_.push_back(m);
        max_pending_ = std::max<std::uint64_t>(max_pending_, pending_.size());
      } else {
        ctx.send(idle_.front(), message{m.a, m.b, data_item});
        idle_.pop_front();
      }
      // Savina's adjusted size: room is kept for the item every producer may have in flight
      if (pending_.size() + s_.producers >= s_.buffer_size)
        waiting_.push_back(actor_ref(m.sender));
      else
        ctx.send(actor_ref(m.sender), message{0, 0, produce});
    } else if (m.tag == consumer_available) {
      acc_ += print(consumer_available, 0);
      if (pending_.empty()) {
        idle_.push_back(actor_ref(m.sender));
        try_exit(ctx);
      } else {
        ctx.send(actor_ref(m.sender), message{pending_.front().a, pending_.front().b, data_item});
        pending_.pop_front();
        if (!waiting_.empty()) {
          ctx.send(waiting_.front(), message{0, 0, produce});
          waiting_.pop_front();
        }
      }
    } else {  // producer_exit
      acc_ += print(producer_exit, m.a);
      ++exited_;
      try_exit(ctx);
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t max_pending_ = 0;
  bool ended_ = false;

 private:
  void try_exit(context& ctx) {
    if (exited_ != s_.producers || idle_.size() != s_.consumers) return;
    for (actor_ref c : consumers_) ctx.send(c, message{0, 0, consumer_exit});
    ended_ = true;
    ctx.stop();
  }

  const setup& s_;
  std::vector<actor_ref> consumers_;
  std::deque<actor_ref> idle_, waiting_;
  std::deque<message> pending_;
  std::uint64_t exited_ = 0, acc_ = 0;
};

class bndbuffer final : public savina_workload {
 public:
  explicit bndbuffer(const workload_params& p)
      : s_{std::uint64_t(p.integer("buffer_size")), std::uint64_t(p.integer("producers")),
           std::uint64_t(p.integer("consumers")),   std::uint64_t(p.integer("items")),
           std::uint64_t(p.integer("prodcost")),    std::uint64_t(p.integer("conscost")),
           p.real("log_ns"),
           {}} {
    // Savina's manager holds producers back once buffer_size - producers items wait; with no
    // room left it would hold every producer back for good.
    if (s_.buffer_size <= s_.producers) throw config_error("savina-bndbuffer: buffer_size must exceed producers");
  }

  void start(context& ctx) override {
    std::vector<actor_ref> cs;
    savina::spawn_each(ctx, s_.consumers, consumers_, cs, s_);
    auto m = ctx.spawn_as<manager>({.name = "manager", .state_bytes = 1024}, s_, cs);
    manager_ = &m.behavior;
    s_.manager = m;
    savina::spawn_workers(ctx, s_.producers, producers_, message{0, 0, produce}, s_);
  }

  std::uint64_t checksum() const override {
    return sum_of_acc(producers_) + sum_of_acc(consumers_) + manager_->acc();
  }
  std::uint64_t reference_checksum() const override {
    return savina_bndbuffer::reference_checksum(s_.producers, s_.consumers, s_.items, s_.prod_cost);
  }
  std::uint64_t expected_messages() const override { return messages(s_.producers, s_.consumers, s_.items); }
  footprint peak() const override {
    const double actors = double(s_.producers + s_.consumers) + 1;
    return {actors, double(s_.buffer_size) + actors, 64.0 * actors};
  }
  bool result_ok() const override {
    std::uint64_t lo = s_.items, hi = 0, consumed = 0;
    for (const producer* p : producers_) lo = std::min(lo, p->produced_), hi = std::max(hi, p->produced_);
    for (const consumer* c : consumers_) consumed += c->consumed_;
    return savina_bndbuffer::result_ok(s_.producers, s_.items, lo, hi, consumed, manager_->max_pending_,
                                       s_.buffer_size, manager_->ended_);
  }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "most items buffered %llu of %llu",
                  static_cast<unsigned long long>(manager_->max_pending_),
                  static_cast<unsigned long long>(s_.buffer_size));
    return buf;
  }

 private:
  setup s_;
  manager* manager_ = nullptr;
  std::vector<producer*> producers_;
  std::vector<consumer*> consumers_;
};

}  // namespace
}  // namespace savina_bndbuffer_impl

workload_info savina_bndbuffer_workload() {
  using namespace savina_bndbuffer_impl;
  return {"savina-bndbuffer",
          "Savina BndBuffer: producers and consumers exchange items through a manager with a bounded buffer",
          {{"buffer_size", std::int64_t(50), "the manager's buffer, in items (Savina's bufferSize); must exceed producers"},
           {"producers", std::int64_t(40), "producer actors (Savina's numProducers)"},
           {"consumers", std::int64_t(40), "consumer actors (Savina's numConsumers)"},
           {"items", std::int64_t(1000), "items per producer (Savina's numItemsPerProducer)"},
           {"prodcost", std::int64_t(25), "a producer's work per item, in hundreds of log terms (Savina's prodCost)", 0},
           {"conscost", std::int64_t(25), "a consumer's work per item, in hundreds of log terms (Savina's consCost)", 0},
           {"log_ns", 4.1,
            "simulation only: modeled ns per log term of processItem (unset: the machine's calibrated "
            "savina_bndbuffer_log, else 4.1: calibrate on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<bndbuffer>(p); },
          {{"savina_bndbuffer_log", "log_ns", [](std::uint64_t units) {
              return std::bit_cast<std::uint64_t>(process_item(0, (units + 99) / 100));
            }}}};
}

}  // namespace twinsched
