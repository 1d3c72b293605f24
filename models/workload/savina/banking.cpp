// Savina's Banking: a teller sends `transactions` random transfers at once, each to its source
// account (Credit). The source takes the amount off, sends it to the destination (Debit) and
// waits for the destination's answer before it answers the teller; while it waits it keeps every
// other message aside (Akka's stash) and takes them up, in order, after. Transfers go from a
// lower to a higher account, so no cycle of waiting accounts can form. When every transfer is
// answered the teller stops the accounts. Measures request-reply chains between many actors.
#include <cstdio>
#include <deque>

#include "banking.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_banking_impl {
namespace {
using namespace savina_banking;

inline std::uint64_t ref_word(actor_ref a) { return reinterpret_cast<std::uintptr_t>(a.get()); }
inline actor_ref ref_of(std::uint64_t w) { return actor_ref(reinterpret_cast<actor*>(std::uintptr_t(w))); }

class account final : public behavior {
 public:
  account(std::uint64_t id, std::int64_t balance) : id_(id), balance_(balance) {}
  void receive(context& ctx, const message& m) override {
    if (!teller_) {
      handle(ctx, m);
      return;
    }
    if (m.tag != dest_reply) {
      stash_.push_back(m);
      return;
    }
    acc_ += print(dest_reply, m.a);
    ctx.send(teller_, message{m.a, 0, src_reply});
    teller_ = {};
    while (!teller_ && !stash_.empty()) {  // unstash: the kept messages first, in their order
      const message next_one = stash_.front();
      stash_.pop_front();
      handle(ctx, next_one);
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::int64_t balance() const { return balance_; }

 private:
  void handle(context& ctx, const message& m) {
    const std::uint64_t amount = std::uint32_t(m.a);
    switch (m.tag) {
      case credit:
        acc_ += print(credit, m.a);
        balance_ -= std::int64_t(amount);
        ctx.send(ref_of(m.b), message{m.a, 0, debit});
        teller_ = actor_ref(m.sender);  // answered once the destination has answered
        break;
      case debit:
        acc_ += print(debit, m.a);
        balance_ += std::int64_t(amount);
        ctx.send(actor_ref(m.sender), message{m.a, 0, dest_reply});
        break;
      default:  // stop
        acc_ += print(stop, id_);
        ctx.stop();
    }
  }

  std::uint64_t id_;
  std::int64_t balance_;
  actor_ref teller_;  // set while a transfer from here waits for its destination
  std::deque<message> stash_;
  std::uint64_t acc_ = 0;
};

class teller final : public behavior {
 public:
  teller(std::uint64_t transactions, std::uint64_t seed) : transactions_(transactions), seed_(seed) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == teller_start) {
      rng r = teller_rng(seed_);
      for (std::uint64_t k = 0; k < transactions_; ++k) {
        const transfer t = next_transfer(r, std::uint32_t(accounts_.size()));
        ctx.send(accounts_[t.src], message{word(k, t.amount), ref_word(accounts_[t.dest]), credit});
      }
      return;
    }
    acc_ += print(src_reply, m.a);
    if (++completed_ == transactions_) {
      for (actor_ref a : accounts_) ctx.send(a, message{0, 0, stop});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::vector<actor_ref> accounts_;
  std::uint64_t completed_ = 0;

 private:
  std::uint64_t transactions_, seed_, acc_ = 0;
};

class banking final : public savina_workload {
 public:
  banking(const workload_params& p, std::uint64_t seed)
      : accounts_(std::uint32_t(p.integer("accounts"))), transactions_(std::uint64_t(p.integer("transactions"))),
        seed_(seed) {}

  void start(context& ctx) override {
    auto t = ctx.spawn_as<teller>({.name = "teller", .state_bytes = 256}, transactions_, seed_);
    teller_ = &t.behavior;
    for (std::uint32_t i = 0; i < accounts_; ++i) {
      auto a = ctx.spawn_as<account>({.state_bytes = 128}, i, initial_balance(accounts_));
      account_list_.push_back(&a.behavior);
      teller_->accounts_.push_back(a);
    }
    ctx.send(t, message{0, 0, teller_start});
  }

  std::uint64_t checksum() const override { return sum_of_acc(account_list_) + teller_->acc(); }
  std::uint64_t reference_checksum() const override {
    return savina_banking::reference_checksum(accounts_, transactions_, seed_);
  }
  std::uint64_t expected_messages() const override { return messages(accounts_, transactions_); }
  /// The teller sends every transfer at once.
  footprint peak() const override {
    return {double(accounts_) + 1, double(transactions_), 64.0 * double(accounts_)};
  }
  bool result_ok() const override {
    std::vector<std::int64_t> got;
    for (const account* a : account_list_) got.push_back(a->balance());
    return savina_banking::result_ok(transactions_, teller_->completed_, closing(accounts_, transactions_, seed_), got);
  }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%llu transfers completed", static_cast<unsigned long long>(teller_->completed_));
    return buf;
  }

 private:
  std::uint32_t accounts_;
  std::uint64_t transactions_, seed_;
  teller* teller_ = nullptr;
  std::vector<account*> account_list_;
};

}  // namespace
}  // namespace savina_banking_impl

workload_info savina_banking_workload() {
  using namespace savina_banking_impl;
  return {"savina-banking",
          "Savina Banking: a teller sends random transfers; each source account asks the destination, then answers",
          {{"accounts", std::int64_t(1000), "accounts (Savina's A)", 2, 4294967295.0},
           {"transactions", std::int64_t(50000), "transfers (Savina's N)", 1, 4294967295.0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<banking>(p, seed); }};
}

}  // namespace twinsched
