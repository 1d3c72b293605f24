// Savina's Barber: a customer factory sends `haircuts` new customers to a waiting room with
// `room` chairs, pausing a random time (up to `apr` busy-wait iterations) after each. The room
// seats a customer (Wait) or turns it away when full (Full: the customer goes back to the factory,
// which sends it again), and wakes the sleeping barber. The barber cuts one customer's hair at a
// time, each cut a random time (up to `ahr` iterations), then asks the room for the next. When
// every customer is done the factory ends the room, which ends the barber. Customers are actors
// the factory spawns mid-run. Savina's busy-wait loops are modeled as CPU work of `wait_ns` per
// iteration (burned on real cores, charged in simulation).
#include <cstdio>
#include <deque>

#include "barber.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_barber_impl {
namespace {
using namespace savina_barber;

inline std::uint64_t word(actor_ref a) { return reinterpret_cast<std::uintptr_t>(a.get()); }
inline actor_ref ref(std::uint64_t w) { return actor_ref(reinterpret_cast<actor*>(std::uintptr_t(w))); }

struct setup {
  std::uint64_t haircuts, capacity;
  std::uint32_t apr, ahr;
  double wait_ns;
  std::uint64_t seed;
  actor_ref factory, room, barber;
};

class customer final : public behavior {
 public:
  customer(const setup& s, std::uint64_t id) : s_(s), id_(id) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case full:
        ctx.send(s_.factory, message{0, 0, returned});
        break;
      case wait:
        break;
      case cut_start:
        acc_ += print(cut_start, id_);
        ++started_;
        break;
      default:  // cut_done
        acc_ += print(cut_done, id_);
        ++done_;
        ctx.send(s_.factory, message{id_, 0, done});
        ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t started_ = 0, done_ = 0;

 private:
  const setup& s_;
  std::uint64_t id_, acc_ = 0;
};

class factory final : public behavior {
 public:
  explicit factory(const setup& s) : s_(s), rng_(factory_rng(s.seed)) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case factory_start:
        for (std::uint64_t i = 0; i < s_.haircuts; ++i) {
          auto c = ctx.spawn_as<customer>({}, s_, i);
          customers_.push_back(&c.behavior);
          ctx.send(s_.room, message{word(c), 0, enter});
          ctx.burn_ns(std::uint64_t(double(wait_iterations(rng_, s_.apr)) * s_.wait_ns));
        }
        break;
      case returned:
        ++returned_;
        ctx.send(s_.room, message{word(actor_ref(m.sender)), 0, enter});
        break;
      default:  // done
        acc_ += print(done, m.a);
        if (++done_ == s_.haircuts) {
          ctx.send(s_.room, message{0, 0, room_exit});
          ctx.stop();
        }
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::vector<customer*> customers_;
  std::uint64_t returned_ = 0, done_ = 0;

 private:
  const setup& s_;
  rng rng_;
  std::uint64_t acc_ = 0;
};

class room final : public behavior {
 public:
  explicit room(const setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case enter:
        if (waiting_.size() == s_.capacity) {
          ++turned_away_;
          ctx.send(ref(m.a), message{0, 0, full});
          break;
        }
        waiting_.push_back(m.a);
        most_waiting_ = std::max<std::uint64_t>(most_waiting_, waiting_.size());
        if (asleep_) {
          asleep_ = false;
          ctx.send(ctx.self(), message{0, 0, next});
        } else {
          ctx.send(ref(m.a), message{0, 0, wait});
        }
        break;
      case next:
        if (!waiting_.empty()) {
          ctx.send(s_.barber, message{waiting_.front(), 0, serve});
          waiting_.pop_front();
        } else {
          ctx.send(s_.barber, message{0, 0, sleep});
          asleep_ = true;
          ++sleeps_;
        }
        break;
      default:  // room_exit
        acc_ += print(room_exit, 0);
        ended_ = true;
        ctx.send(s_.barber, message{0, 0, barber_exit});
        ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t turned_away_ = 0, sleeps_ = 0, most_waiting_ = 0;
  bool ended_ = false;

 private:
  const setup& s_;
  std::deque<std::uint64_t> waiting_;  // the seated customers, in arrival order
  bool asleep_ = true;
  std::uint64_t acc_ = 0;
};

class barber final : public behavior {
 public:
  explicit barber(const setup& s) : s_(s), rng_(barber_rng(s.seed)) {}
  void receive(context& ctx, const message& m) override {
    switch (m.tag) {
      case serve: {
        const actor_ref c = ref(m.a);
        ctx.send(c, message{0, 0, cut_start});
        const std::uint64_t it = wait_iterations(rng_, s_.ahr);
        ctx.burn_ns(std::uint64_t(double(it) * s_.wait_ns));
        acc_ += print(serve, haircuts_++, it);
        ctx.send(c, message{0, 0, cut_done});
        ctx.send(s_.room, message{0, 0, next});
        break;
      }
      case sleep:
        break;
      default:  // barber_exit
        acc_ += print(barber_exit, 0);
        ended_ = true;
        ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t haircuts_ = 0;
  bool ended_ = false;

 private:
  const setup& s_;
  rng rng_;
  std::uint64_t acc_ = 0;
};

class barbershop final : public workload {
 public:
  barbershop(const workload_params& p, std::uint64_t seed)
      : s_{std::uint64_t(p.integer("haircuts")),
           std::uint64_t(p.integer("room")),
           std::uint32_t(p.integer("apr")),
           std::uint32_t(p.integer("ahr")),
           p.real("wait_ns"),
           seed,
           {},
           {},
           {}} {}

  void start(context& ctx) override {
    auto b = ctx.spawn_as<barber>({.name = "barber"}, s_);
    auto r = ctx.spawn_as<room>({.name = "waiting-room", .state_bytes = 256}, s_);
    auto f = ctx.spawn_as<factory>({.name = "customer-factory"}, s_);
    barber_ = &b.behavior;
    room_ = &r.behavior;
    factory_ = &f.behavior;
    s_.barber = b;
    s_.room = r;
    s_.factory = f;
    ctx.send(f, message{0, 0, factory_start});
  }

  std::uint64_t checksum() const override {
    return sum_of_acc(factory_->customers_) + factory_->acc() + room_->acc() + barber_->acc();
  }
  std::uint64_t reference_checksum() const override {
    return savina_barber::reference_checksum(s_.haircuts, s_.ahr, s_.seed);
  }
  /// Turn-aways and the barber's naps are the interleaving's: counted where the room decides them.
  std::uint64_t expected_messages() const override {
    return room_ ? messages(s_.haircuts, room_->turned_away_, room_->sleeps_) : messages(s_.haircuts, 0, 1);
  }
  footprint peak() const override {
    return {double(s_.haircuts) + 3, double(s_.haircuts) + 3, 48.0 * double(s_.haircuts)};
  }
  bool result_ok() const override { return savina_barber::result_ok(s_.haircuts, s_.capacity, recorded()); }
  std::string detail() const override {
    char buf[96];
    std::snprintf(buf, sizeof buf, "attempts %llu (%llu turned away), barber slept %llu times",
                  static_cast<unsigned long long>(s_.haircuts + room_->turned_away_),
                  static_cast<unsigned long long>(room_->turned_away_), static_cast<unsigned long long>(room_->sleeps_));
    return buf;
  }

 private:
  outcome recorded() const {
    outcome o;
    o.customers = factory_->customers_.size();
    for (const customer* c : factory_->customers_) o.served_once += c->started_ == 1 && c->done_ == 1;
    o.haircuts = barber_->haircuts_;
    o.factory_done = factory_->done_;
    o.turned_away = room_->turned_away_;
    o.returned = factory_->returned_;
    o.most_waiting = room_->most_waiting_;
    o.ended = room_->ended_ && barber_->ended_;
    return o;
  }

  setup s_;
  barber* barber_ = nullptr;
  room* room_ = nullptr;
  factory* factory_ = nullptr;
};

}  // namespace
}  // namespace savina_barber_impl

workload_info savina_barber_workload() {
  using namespace savina_barber_impl;
  return {"savina-barber",
          "Savina Barber: a factory sends customers to a waiting room; one barber serves them one at a time",
          {{"haircuts", std::int64_t(5000), "customers, each served once (Savina's N)"},
           {"room", std::int64_t(1000), "chairs in the waiting room (Savina's W)"},
           {"apr", std::int64_t(1000), "customer arrival pause: up to apr + 10 busy-wait iterations (Savina's APR)", 1,
            4294967295.0},
           {"ahr", std::int64_t(1000), "haircut length: up to ahr + 10 busy-wait iterations (Savina's AHR)", 1,
            4294967295.0},
           {"wait_ns", 10.0, "CPU ns per busy-wait iteration (Savina's loop calls Math.random() once each)", 0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<barbershop>(p, seed); }};
}

}  // namespace twinsched
