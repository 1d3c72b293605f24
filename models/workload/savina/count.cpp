// Savina's Count: a producer sends a counter `messages` increments, then asks it for the count;
// the counter answers with it and both stop. Measures one actor's throughput under a stream of
// messages from another (the mailbox's enqueue and dequeue cost).
#include <cstdio>

#include "count.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_count_impl {
namespace {
using namespace savina_count;

class counter final : public behavior {
 public:
  void receive(context& ctx, const message& m) override {
    acc_ += value(m.tag, m.a);
    if (m.tag == increment) {
      ++count_;
    } else {
      ctx.send(actor_ref(m.sender), message{count_, 0, result});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }

 private:
  std::uint64_t count_ = 0, acc_ = 0;
};

class producer final : public behavior {
 public:
  producer(std::uint64_t n, actor_ref counter) : n_(n), counter_(counter) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(m.tag, m.a);
    if (m.tag == savina_count::start) {
      for (std::uint64_t i = 0; i < n_; ++i) ctx.send(counter_, message{i, 0, increment});
      ctx.send(counter_, message{0, 0, retrieve});
    } else {
      answered_ = true;
      result_ = m.a;
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  bool answered_ = false;
  std::uint64_t result_ = 0;

 private:
  std::uint64_t n_;
  actor_ref counter_;
  std::uint64_t acc_ = 0;
};

class count final : public savina_workload {
 public:
  explicit count(const workload_params& p) : n_(std::uint64_t(p.integer("messages"))) {}

  void start(context& ctx) override {
    auto c = ctx.spawn_as<counter>({.name = "counter"});
    auto p = ctx.spawn_as<producer>({.name = "producer"}, n_, c.ref);
    counter_ = &c.behavior;
    producer_ = &p.behavior;
    ctx.send(p, message{0, 0, savina_count::start});
  }

  std::uint64_t checksum() const override { return counter_->acc() + producer_->acc(); }
  std::uint64_t reference_checksum() const override { return savina_count::reference_checksum(n_); }
  std::uint64_t expected_messages() const override { return messages(n_); }
  /// The producer may send every increment before the counter takes one.
  footprint peak() const override { return {2, double(n_) + 1, 0}; }
  bool result_ok() const override { return savina_count::result_ok(n_, producer_->answered_, producer_->result_); }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "count = %llu (expected %llu)", static_cast<unsigned long long>(producer_->result_),
                  static_cast<unsigned long long>(n_));
    return buf;
  }

 private:
  std::uint64_t n_;
  counter* counter_ = nullptr;
  producer* producer_ = nullptr;
};

}  // namespace
}  // namespace savina_count_impl

workload_info savina_count_workload() {
  using namespace savina_count_impl;
  return {"savina-count",
          "Savina Count: a producer sends a counter increments, then asks it for the count (mailbox throughput)",
          {{"messages", std::int64_t(1000000), "increments the producer sends (Savina's N)"}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<count>(p); }};
}

}  // namespace twinsched
