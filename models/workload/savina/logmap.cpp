// Savina's LogMap: `series` series workers each compute `terms` steps of the logistic map, each
// step by asking its own rate computer (request-reply through the message's sender). The master
// sends every NextTerm at once, then a GetTerm to each worker; a worker waiting for its
// computer's answer keeps every other message aside (Akka's stash) and takes them up again, in
// order, once the answer is in. The master sums the last terms and stops everyone. Measures
// request-reply chains with a backlog held inside the actor.
#include <cstdio>
#include <deque>

#include "logmap.hpp"
#include "savina.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_logmap_impl {
namespace {
using namespace savina_logmap;

class rate_computer final : public behavior {
 public:
  rate_computer(std::uint64_t id, double rate) : id_(id), rate_(rate) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == stop) {
      acc_ += print(stop, id_);
      ctx.stop();
      return;
    }
    const double t = std::bit_cast<double>(m.a);
    acc_ += print(compute, id_, t);
    ctx.send(actor_ref(m.sender), message{std::bit_cast<std::uint64_t>(next(t, rate_)), 0, result});
  }
  std::uint64_t acc() const { return acc_; }

 private:
  std::uint64_t id_;
  double rate_;
  std::uint64_t acc_ = 0;
};

class series_worker final : public behavior {
 public:
  series_worker(std::uint64_t id, double start, actor_ref master, actor_ref computer)
      : id_(id), term_(start), master_(master), computer_(computer) {}
  void receive(context& ctx, const message& m) override {
    if (!waiting_) {
      handle(ctx, m);
      return;
    }
    if (m.tag != result) {
      stash_.push_back(m);
      return;
    }
    term_ = std::bit_cast<double>(m.a);
    acc_ += print(result, id_, term_);
    waiting_ = false;
    while (!waiting_ && !stash_.empty()) {  // unstash: the kept messages first, in their order
      const message next_one = stash_.front();
      stash_.pop_front();
      handle(ctx, next_one);
    }
  }
  std::uint64_t acc() const { return acc_; }

 private:
  void handle(context& ctx, const message& m) {
    acc_ += print(m.tag, id_);
    if (m.tag == next_term) {
      ctx.send(computer_, message{std::bit_cast<std::uint64_t>(term_), 0, compute});
      waiting_ = true;
    } else if (m.tag == get_term) {
      ctx.send(master_, message{std::bit_cast<std::uint64_t>(term_), id_, final_term});
    } else {  // stop
      ctx.stop();
    }
  }

  std::uint64_t id_;
  double term_;
  actor_ref master_, computer_;
  bool waiting_ = false;
  std::deque<message> stash_;
  std::uint64_t acc_ = 0;
};

class logmap_master final : public behavior {
 public:
  logmap_master(std::uint64_t terms, std::uint64_t series) : last_(series), reported_(series), terms_(terms) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == master_start) {
      acc_ += print(master_start, 0);
      for (std::uint64_t k = 0; k < terms_; ++k)
        for (actor_ref w : workers_) ctx.send(w, message{0, 0, next_term});
      for (actor_ref w : workers_) ctx.send(w, message{0, 0, get_term});
      return;
    }
    const double t = std::bit_cast<double>(m.a);
    acc_ += print(final_term, m.b, t);
    last_[m.b] = t;
    ++reported_[m.b];
    sum_ += t;
    if (++received_ == workers_.size()) {
      for (actor_ref c : computers_) ctx.send(c, message{0, 0, stop});
      for (actor_ref w : workers_) ctx.send(w, message{0, 0, stop});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::vector<actor_ref> workers_, computers_;
  std::vector<double> last_;
  std::vector<std::uint64_t> reported_;
  double sum_ = 0;

 private:
  std::uint64_t terms_, received_ = 0, acc_ = 0;
};

class logmap final : public savina_workload {
 public:
  explicit logmap(const workload_params& p)
      : terms_(std::uint64_t(p.integer("terms"))), series_(std::uint64_t(p.integer("series"))),
        start_rate_(p.real("start_rate")), increment_(p.real("increment")) {}

  void start(context& ctx) override {
    auto m = ctx.spawn_as<logmap_master>({.name = "master", .state_bytes = 256}, terms_, series_);
    master_ = &m.behavior;
    for (std::uint64_t i = 0; i < series_; ++i) {
      auto c = ctx.spawn_as<rate_computer>({}, i, rate(i, start_rate_, increment_));
      computers_.push_back(&c.behavior);
      master_->computers_.push_back(c);
    }
    for (std::uint64_t i = 0; i < series_; ++i) {
      auto w = ctx.spawn_as<series_worker>({.state_bytes = 256}, i, start_term(i, increment_), m.ref,
                                           master_->computers_[i]);
      workers_.push_back(&w.behavior);
      master_->workers_.push_back(w);
    }
    ctx.send(m, message{0, 0, master_start});
  }

  std::uint64_t checksum() const override {
    return sum_of_acc(workers_) + sum_of_acc(computers_) + master_->acc();
  }
  std::uint64_t reference_checksum() const override {
    return savina_logmap::reference_checksum(terms_, series_, start_rate_, increment_);
  }
  std::uint64_t expected_messages() const override { return messages(terms_, series_); }
  /// The master sends every request at once: they wait in the workers' mailboxes and stashes.
  footprint peak() const override {
    const double n = double(terms_ * series_);
    return {2.0 * double(series_) + 1, n + double(series_), 40.0 * n};
  }
  bool result_ok() const override {
    return savina_logmap::result_ok(final_terms(terms_, series_, start_rate_, increment_), master_->last_,
                                    master_->reported_);
  }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "terms sum %.12g", master_->sum_);
    return buf;
  }

 private:
  std::uint64_t terms_, series_;
  double start_rate_, increment_;
  logmap_master* master_ = nullptr;
  std::vector<rate_computer*> computers_;
  std::vector<series_worker*> workers_;
};

}  // namespace
}  // namespace savina_logmap_impl

workload_info savina_logmap_workload() {
  using namespace savina_logmap_impl;
  return {"savina-logmap",
          "Savina LogMap: series workers step the logistic map, each step a request to their rate computer",
          {{"terms", std::int64_t(25000), "steps per series (Savina's numTerms)"},
           {"series", std::int64_t(10), "series, each a worker and a rate computer (Savina's numSeries)"},
           {"start_rate", 3.46, "rate of series 0 (Savina's startRate)", 0, 4},
           {"increment", 0.0025, "rate and start-term step from one series to the next (Savina's increment)", 0, 1}},
          [](const workload_params& p, std::uint64_t) { return std::make_unique<logmap>(p); }};
}

}  // namespace twinsched
