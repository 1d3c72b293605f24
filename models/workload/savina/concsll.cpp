// Savina's ConcSLL: `workers` workers each send `messages` requests, one at a time, to one actor
// holding a sorted linked list: `write_percent` percent add a value, `size_percent` percent ask
// the list's length, the rest ask whether it contains a value. The list answers each through the
// request's sender. Every operation walks the list, so the one actor's turns grow with the list:
// contention on a hot actor whose messages are expensive.
#include <cstdio>
#include <unordered_set>

#include "concsll.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_concsll_impl {
namespace {
using namespace savina_concsll;

struct setup {
  std::uint64_t seed, workers, per_worker;
  std::uint32_t write_percent, size_percent;
  double node_ns;
  actor_ref master, list;
};

class list_actor final : public behavior {
 public:
  explicit list_actor(const setup& s) : s_(s) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == list_end) {
      acc_ += reply_print(list_end, 0, 0);
      ctx.stop();
      return;
    }
    const request q{m.tag, std::int32_t(std::uint32_t(m.a))};
    acc_ += request_print(m.b >> 32, std::uint32_t(m.b), q);
    std::uint64_t visits = 0, answer = 0;
    if (q.kind == write) {
      visits = list_.add(q.value);
      answer = std::uint32_t(q.value);
    } else if (q.kind == contains) {
      answer = list_.contains(q.value, visits);
    } else {
      answer = visits = list_.size();
    }
    ctx.did_work_ns(std::uint64_t(double(visits) * s_.node_ns));
    ctx.send(actor_ref(m.sender), message{answer, m.b, result});
  }
  std::uint64_t acc() const { return acc_; }
  const sorted_list& list() const { return list_; }

 private:
  const setup& s_;
  sorted_list list_;
  std::uint64_t acc_ = 0;
};

class worker final : public behavior {
 public:
  worker(const setup& s, const answers& legal, std::uint64_t id)
      : s_(s), legal_(legal), id_(id), rng_(worker_rng(s.seed, id)) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == do_work) {
      acc_ += reply_print(do_work, id_, 0);
    } else {
      acc_ += reply_print(result, count_, last_.kind == write ? std::uint32_t(last_.value) : 0);
      check(m.a);
    }
    if (count_ < s_.per_worker) {
      last_ = next_request(rng_, s_.write_percent, s_.size_percent);
      ++count_;
      ctx.send(s_.list, message{std::uint32_t(last_.value), (id_ << 32) | count_, last_.kind});
    } else {
      ctx.send(s_.master, message{id_, 0, worker_end});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t wrong_answers_ = 0;

 private:
  void check(std::uint64_t answer) {
    bool ok = true;
    if (last_.kind == write) {
      ok = answer == std::uint32_t(last_.value);
      own_.insert(last_.value);
    } else if (last_.kind == contains) {
      ok = legal_.contains_ok(last_.value, answer != 0, own_.contains(last_.value));
    } else {
      ok = legal_.size_ok(answer, own_.size());
    }
    wrong_answers_ += !ok;
  }

  const setup& s_;
  const answers& legal_;
  std::uint64_t id_, count_ = 0, acc_ = 0;
  rng rng_;
  request last_{};
  std::unordered_multiset<std::int32_t> own_;  // this worker's answered writes
};

std::uint64_t worker_end_print(std::uint64_t worker) { return reply_print(worker_end, worker, 0); }
using master = savina::end_master<setup, &setup::list, list_end, worker_end_print>;

class concsll final : public savina_workload {
 public:
  concsll(const workload_params& p, std::uint64_t seed)
      : s_{seed,
           std::uint64_t(p.integer("workers")),
           std::uint64_t(p.integer("messages")),
           std::uint32_t(p.integer("write_percent")),
           std::uint32_t(p.integer("size_percent")),
           p.real("node_ns"),
           {},
           {}},
        legal_(seed, s_.workers, s_.per_worker, s_.write_percent, s_.size_percent) {}

  void start(context& ctx) override {
    auto l = ctx.spawn_as<list_actor>({.name = "sorted-list", .state_bytes = 4096}, s_);
    auto m = ctx.spawn_as<master>({.name = "master"}, s_);
    list_ = &l.behavior;
    master_ = &m.behavior;
    s_.list = l;
    s_.master = m;
    savina::spawn_workers(ctx, s_.workers, workers_, message{0, 0, do_work}, s_, legal_);
  }

  std::uint64_t checksum() const override { return sum_of_acc(workers_) + list_->acc() + master_->acc(); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = reply_print(list_end, 0, 0);
    for (std::uint64_t w = 0; w < s_.workers; ++w) {
      rng r = worker_rng(s_.seed, w);
      s += reply_print(do_work, w, 0) + reply_print(worker_end, w, 0);
      for (std::uint64_t i = 1; i <= s_.per_worker; ++i) {
        const request q = next_request(r, s_.write_percent, s_.size_percent);
        s += request_print(w, i, q) + reply_print(result, i, q.kind == write ? std::uint32_t(q.value) : 0);
      }
    }
    return s;
  }
  std::uint64_t expected_messages() const override { return messages(s_.workers, s_.per_worker); }
  footprint peak() const override {
    return {double(s_.workers) + 2, double(s_.workers) + 1, 16.0 * double(legal_.writes()) + 96.0 * double(s_.workers)};
  }
  /// Every answer is one the interleavings allow, and the list ends holding every write, sorted.
  bool result_ok() const override {
    std::uint64_t wrong = 0;
    for (const worker* w : workers_) wrong += w->wrong_answers_;
    return wrong == 0 && master_->ended() == s_.workers && legal_.final_ok(list_->list().items());
  }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "list size %llu", static_cast<unsigned long long>(list_->list().size()));
    return buf;
  }

 private:
  setup s_;
  answers legal_;
  list_actor* list_ = nullptr;
  master* master_ = nullptr;
  std::vector<worker*> workers_;
};

/// The calibration kernel: `units` node visits, contains scans of a list of up to 4096 values.
std::uint64_t visit_nodes(std::uint64_t units) {
  sorted_list l;
  rng r(units);
  const std::uint64_t n = std::min<std::uint64_t>(units ? units : 1, 4096);
  for (std::uint64_t i = 0; i < n; ++i) l.add(std::int32_t(std::uint32_t(r.next())));
  std::uint64_t done = 0, found = 0, v = 0;
  while (done < units) {
    found += l.contains(std::int32_t(std::uint32_t(r.next())), v);
    done += v;
  }
  return found + done;
}

}  // namespace
}  // namespace savina_concsll_impl

workload_info savina_concsll_workload() {
  using namespace savina_concsll_impl;
  return {"savina-concsll",
          "Savina ConcSLL: workers send adds, lookups and size queries, one at a time, to one sorted-list actor",
          {{"workers", std::int64_t(20), "worker actors (Savina's NUM_ENTITIES)"},
           {"messages", std::int64_t(8000), "requests per worker (Savina's NUM_MSGS_PER_WORKER)"},
           {"write_percent", std::int64_t(10), "percent of requests that add a value (Savina's WRITE_PERCENTAGE)", 0,
            100},
           {"size_percent", std::int64_t(1), "percent of requests that ask the size (Savina's SIZE_PERCENTAGE)", 0,
            100},
           {"node_ns", 8.0,
            "simulation only: modeled ns per list node an operation visits (unset: the machine's calibrated "
            "savina_concsll_node, else 8: a 16000-node list on the 2-vCPU EPYC VM)",
            0}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<concsll>(p, seed); },
          {{"savina_concsll_node", "node_ns", visit_nodes}}};
}

}  // namespace twinsched
