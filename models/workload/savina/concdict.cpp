// Savina's ConcDict: `workers` workers each send `messages` requests, one at a time, to one
// dictionary actor that holds a map (every key below DATA_LIMIT present from the start);
// `write_percent` percent are writes, the rest reads, and the dictionary answers each through the
// request's sender. Each worker reports to the master when done; the master then ends the
// dictionary. Measures contention on one actor that many others wait on.
#include <cstdio>
#include <vector>

#include "concdict.hpp"
#include "savina.hpp"
#include "savina_common.hpp"

namespace twinsched {
// Named apart from every other workload's: the unity build compiles several workloads in one file.
namespace savina_concdict_impl {
namespace {
using namespace savina_concdict;

/// Savina's HashMap holds every key below DATA_LIMIT from the start, and no request names another
/// key: an array indexed by the key is that map with a perfect hash, filled by one pass over 2 MiB
/// where a node-based hash map allocates and links half a million nodes before the first request.
class dictionary final : public behavior {
 public:
  dictionary() : map_(data_limit) {
    for (std::uint32_t k = 0; k < data_limit; ++k) map_[k] = std::int32_t(k);
  }
  void receive(context& ctx, const message& m) override {
    if (m.tag == dictionary_end) {
      acc_ += reply_print(dictionary_end, 0, 0);
      ctx.stop();
      return;
    }
    const request q{m.tag == write, std::uint32_t(m.a >> 32), std::int32_t(std::uint32_t(m.a))};
    acc_ += request_print(m.b >> 32, std::uint32_t(m.b), q);
    std::int32_t v;
    if (q.write) {
      map_[q.key] = q.value;
      v = q.value;
    } else {
      v = map_.at(q.key);  // checked: a key past the table is a wrong request, which fails the actor
    }
    ctx.send(actor_ref(m.sender), message{std::uint32_t(v), m.b, result});
  }
  std::uint64_t acc() const { return acc_; }
  const std::vector<std::int32_t>& map() const { return map_; }

 private:
  std::vector<std::int32_t> map_;  ///< the value of key k at k
  std::uint64_t acc_ = 0;
};

struct setup {
  std::uint64_t seed, workers, per_worker;
  std::uint32_t write_percent;
  actor_ref master, dict;
};

class worker final : public behavior {
 public:
  worker(const setup& s, const values& legal, std::uint64_t id)
      : s_(s), legal_(legal), id_(id), rng_(worker_rng(s.seed, id)) {}
  void receive(context& ctx, const message& m) override {
    if (m.tag == do_work) {
      acc_ += reply_print(do_work, id_, 0);
    } else {
      acc_ += reply_print(result, count_, last_.write ? std::uint32_t(last_.value) : 0);
      if (!last_.write && !legal_.read_ok(last_.key, std::int32_t(std::uint32_t(m.a)))) ++bad_reads_;
      if (last_.write && std::int32_t(std::uint32_t(m.a)) != last_.value) ++bad_reads_;
    }
    if (count_ < s_.per_worker) {
      last_ = next_request(rng_, s_.write_percent);
      ++count_;
      ctx.send(s_.dict, message{(std::uint64_t(last_.key) << 32) | std::uint32_t(last_.value), (id_ << 32) | count_,
                                last_.write ? write : read});
    } else {
      ctx.send(s_.master, message{id_, 0, worker_end});
      ctx.stop();
    }
  }
  std::uint64_t acc() const { return acc_; }
  std::uint64_t bad_reads_ = 0;

 private:
  const setup& s_;
  const values& legal_;
  std::uint64_t id_, count_ = 0, acc_ = 0;
  rng rng_;
  request last_{};
};

std::uint64_t worker_end_print(std::uint64_t worker) { return reply_print(worker_end, worker, 0); }
using master = savina::end_master<setup, &setup::dict, dictionary_end, worker_end_print>;

class concdict final : public savina_workload {
 public:
  concdict(const workload_params& p, std::uint64_t seed)
      : s_{seed, std::uint64_t(p.integer("workers")), std::uint64_t(p.integer("messages")),
           std::uint32_t(p.integer("write_percent")), {}, {}},
        legal_(seed, s_.workers, s_.per_worker, s_.write_percent) {}

  void start(context& ctx) override {
    auto d = ctx.spawn_as<dictionary>({.name = "dictionary", .state_bytes = 4096});
    auto m = ctx.spawn_as<master>({.name = "master"}, s_);
    dict_ = &d.behavior;
    master_ = &m.behavior;
    s_.dict = d;
    s_.master = m;
    savina::spawn_workers(ctx, s_.workers, workers_, message{0, 0, do_work}, s_, legal_);
  }

  std::uint64_t checksum() const override { return sum_of_acc(workers_) + dict_->acc() + master_->acc(); }
  std::uint64_t reference_checksum() const override {
    std::uint64_t s = reply_print(dictionary_end, 0, 0);
    for (std::uint64_t w = 0; w < s_.workers; ++w) {
      rng r = worker_rng(s_.seed, w);
      s += reply_print(do_work, w, 0) + reply_print(worker_end, w, 0);
      for (std::uint64_t i = 1; i <= s_.per_worker; ++i) {
        const request q = next_request(r, s_.write_percent);
        s += request_print(w, i, q) + reply_print(result, i, q.write ? std::uint32_t(q.value) : 0);
      }
    }
    return s;
  }
  std::uint64_t expected_messages() const override { return messages(s_.workers, s_.per_worker); }
  footprint peak() const override {
    return {double(s_.workers) + 2, double(s_.workers) + 1, 4.0 * data_limit + 64.0 * double(s_.workers)};
  }
  /// Every read answered a value the key could hold, every write echoed its value, and the
  /// dictionary ends holding, for every key, its first value or some worker's last write to it.
  bool result_ok() const override {
    std::uint64_t bad = 0;
    for (const worker* w : workers_) bad += w->bad_reads_;
    return bad == 0 && master_->ended() == s_.workers && legal_.final_ok(dict_->map());
  }
  std::string detail() const override {
    char buf[64];
    std::snprintf(buf, sizeof buf, "dictionary size %zu", dict_->map().size());
    return buf;
  }

 private:
  setup s_;
  values legal_;
  dictionary* dict_ = nullptr;
  master* master_ = nullptr;
  std::vector<worker*> workers_;
};

}  // namespace
}  // namespace savina_concdict_impl

workload_info savina_concdict_workload() {
  using namespace savina_concdict_impl;
  return {"savina-concdict",
          "Savina ConcDict: workers send reads and writes, one at a time, to one dictionary actor (contention)",
          {{"workers", std::int64_t(20), "worker actors (Savina's NUM_ENTITIES)"},
           {"messages", std::int64_t(10000), "requests per worker (Savina's NUM_MSGS_PER_WORKER)"},
           {"write_percent", std::int64_t(10), "percent of requests that are writes (Savina's WRITE_PERCENTAGE)", 0,
            100}},
          [](const workload_params& p, std::uint64_t seed) { return std::make_unique<concdict>(p, seed); }};
}

}  // namespace twinsched
