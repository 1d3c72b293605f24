// Savina's PingPong: a ping actor and a pong actor exchange `pings` ping-pong round trips, one at a
// time. As in Savina, ping answers each pong by sending itself a ping message, which makes it send
// the next ping, and ends by sending pong a stop. Measures message hand-off latency.
#include <cstdio>

#include "pingpong.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_pingpong_impl {
namespace {
using namespace savina_pingpong;

class ponger final : public behavior {
 public:
  void receive(context& ctx, const message& m) override {
    acc_ += value(m.tag, m.a);
    if (m.tag == send_ping) {
      ctx.send(actor_ref(m.sender), message{m.a, 0, send_pong});
      ++answered_;
    } else {
      stopped_ = true;
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t answered_ = 0;
  bool stopped_ = false;

 private:
  std::uint64_t acc_ = 0;
};

class pinger final : public behavior {
 public:
  pinger(std::uint64_t pings, actor_ref pong) : left_(pings), pong_(pong) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(m.tag, m.a);
    if (m.tag == send_pong) {
      ++received_;
      if (left_ > 0) {
        ctx.send(ctx.self(), message{m.a + 1, 0, self_ping});
      } else {
        ctx.send(pong_, message{0, 0, stop});
        stopped_ = true;
        ctx.stop();
      }
      return;
    }
    ctx.send(pong_, message{m.a, 0, send_ping});  // the start (ping 0) or a self-ping
    --left_;
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t left_, received_ = 0;
  bool stopped_ = false;

 private:
  actor_ref pong_;
  std::uint64_t acc_ = 0;
};

class pingpong final : public savina_workload {
 public:
  explicit pingpong(const workload_params& p) : pings_(std::uint64_t(p.integer("pings"))) {}

  void start(context& ctx) override {
    auto pong = ctx.spawn_as<ponger>({.name = "pong"});
    auto ping = ctx.spawn_as<pinger>({.name = "ping"}, pings_, pong.ref);
    pong_ = &pong.behavior;
    ping_ = &ping.behavior;
    ctx.send(ping, message{0, 0, savina_pingpong::start});
  }

  std::uint64_t checksum() const override { return ping_->acc() + pong_->acc(); }
  std::uint64_t reference_checksum() const override { return savina_pingpong::reference_checksum(pings_); }
  std::uint64_t expected_messages() const override { return messages(pings_); }
  footprint peak() const override { return {2, 1, 0}; }
  bool result_ok() const override {
    return savina_pingpong::result_ok(pings_, pong_->answered_, ping_->received_, ping_->left_,
                                      ping_->stopped_ && pong_->stopped_);
  }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu pings answered of %llu", static_cast<unsigned long long>(pong_->answered_),
                  static_cast<unsigned long long>(pings_));
    return buf;
  }

 private:
  std::uint64_t pings_;
  ponger* pong_ = nullptr;
  pinger* ping_ = nullptr;
};

}  // namespace
}  // namespace savina_pingpong_impl

workload_info savina_pingpong_workload() {
  using namespace savina_pingpong_impl;
  return {"savina-pingpong",
          "Savina PingPong: two actors exchange ping-pong round trips one at a time (hand-off latency)",
          {{"pings", std::int64_t(40000), "ping-pong round trips (Savina's N)"}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<pingpong>(p); }};
}

}  // namespace twinsched
