// Savina's Fork Join (throughput): `messages` rounds, each one message to every one of `actors`
// actors, which each compute sin(theta)^2 per message and stop after their last. In Savina the
// main thread sends while the actors run; here a sender actor does, started by the one injected
// message, so the sending overlaps the processing as it does there. Measures how fast the
// runtime spreads independent messages over the cores.
#include <cstdio>
#include <vector>

#include "fjthrput.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_fjthrput_impl {
namespace {
using namespace savina_fjthrput;

struct setup {
  std::uint64_t actors, per_actor;
  double theta;  ///< read at run time, so the compiler cannot fold the computation away
  std::vector<actor_ref> refs;
};

class throughput_actor final : public behavior {
 public:
  throughput_actor(const setup& s, std::uint64_t id) : s_(s), id_(id) {}
  void receive(context& ctx, const message& m) override {
    acc_ += value(id_, m.a);
    bad_ += !compute(s_.theta);
    if (++processed_ == s_.per_actor) {
      stopped_ = true;
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t processed_ = 0, bad_ = 0;
  bool stopped_ = false;

 private:
  const setup& s_;
  std::uint64_t id_, acc_ = 0;
};

class sender final : public behavior {
 public:
  explicit sender(const setup& s) : s_(s) {}
  void receive(context& ctx, const message&) override {
    for (std::uint64_t i = 0; i < s_.per_actor; ++i)
      for (actor_ref a : s_.refs) ctx.send(a, message{i});
  }

 private:
  const setup& s_;
};

class fjthrput final : public savina_workload {
 public:
  explicit fjthrput(const workload_params& p)
      : s_{std::uint64_t(p.integer("actors")), std::uint64_t(p.integer("messages")), theta, {}} {}

  void start(context& ctx) override {
    savina::spawn_each(ctx, s_.actors, actors_, s_.refs, s_);
    ctx.send(ctx.spawn_as<sender>({.name = "sender"}, s_), message{});
  }

  std::uint64_t checksum() const override { return sum_of_acc(actors_); }
  std::uint64_t reference_checksum() const override { return savina_fjthrput::reference_checksum(s_.actors, s_.per_actor); }
  std::uint64_t expected_messages() const override { return messages(s_.actors, s_.per_actor); }
  /// The sender may send every message before an actor takes one.
  footprint peak() const override {
    return {double(s_.actors) + 1, double(s_.actors) * double(s_.per_actor), 16.0 * double(s_.actors)};
  }
  bool result_ok() const override {
    std::vector<std::uint64_t> processed;
    std::uint64_t bad = 0, stopped = 0;
    for (const auto* a : actors_) {
      processed.push_back(a->processed_);
      bad += a->bad_;
      stopped += a->stopped_;
    }
    return savina_fjthrput::result_ok(s_.per_actor, processed, bad, stopped);
  }
  std::string detail() const override {
    std::uint64_t done = 0;
    for (const auto* a : actors_) done += a->processed_ == s_.per_actor;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%llu of %llu actors processed their %llu messages",
                  static_cast<unsigned long long>(done), static_cast<unsigned long long>(s_.actors),
                  static_cast<unsigned long long>(s_.per_actor));
    return buf;
  }

 private:
  setup s_;
  std::vector<throughput_actor*> actors_;
};

}  // namespace
}  // namespace savina_fjthrput_impl

workload_info savina_fjthrput_workload() {
  using namespace savina_fjthrput_impl;
  return {"savina-fjthrput",
          "Savina Fork Join (throughput): rounds of one message to each of many actors, each computing sin^2",
          {{"actors", std::int64_t(60), "actors receiving the messages (Savina's A)", 1, 1e6},
           {"messages", std::int64_t(10000), "messages to each actor (Savina's N)"}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<fjthrput>(p); }};
}

}  // namespace twinsched
