// The scheduler: owns workers, policy, parking and pools; runs a workload to quiescence on a platform.
//
// Overview
//   `scheduler<P, Pol>` is the whole runtime for one run: the workload's `start` spawns and
//   sends through the injector context (before any worker exists), then one worker per
//   configured thread runs until the system is quiescent, then results are collected.
//
// Quiescence (how a run knows it is over)
//   Every worker counts messages it sent and processed (worker.hpp); the injector counts
//   what it sent. A worker that finds no work enters idle and increments `idle_`; the one
//   that makes it equal to the worker count checks:
//     1. read every worker's `processed`, summing to Pr (acquire loads)
//     2. then read every `sent` and the injector's, summing to S
//     3. quiescent iff Pr == S
//   Why correct: counters only grow and a message is counted sent before it is pushed and
//   processed only after its handler's sends. Let t be the end of step 1: Pr <= Pr(t) <=
//   S(t) <= S. So Pr == S implies Pr(t) == S(t): at t every message ever sent had been fully
//   handled, so nothing can send again. Then `done_` is set and every sleeper is woken
//   (parking.hpp's wake_all; a worker about to park re-checks `done_` after announcing).
//   If the check fails, some message is queued; the worker that runs it will go idle
//   again afterwards and repeat the check, so the last idle worker always checks.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "actor.hpp"
#include "actor_arena.hpp"
#include "config.hpp"
#include "envelope_pool.hpp"
#include "parking.hpp"
#include "platform.hpp"
#include "run_result.hpp"
#include "trace_event.hpp"
#include "tracer.hpp"
#include "worker.hpp"
#include "workload/workload.hpp"

namespace twinsched {

template <platform P, class Pol>
class scheduler {
 public:
  using cell = actor_cell<P>;

  scheduler(P& plat, const scheduler_config& c, std::uint64_t seed, trace_level level = trace_level::off)
      : plat_(plat), cfg_(c), park_(c.workers), policy_(park_, c, seed), level_(level), injector_(*this) {
    for (unsigned i = 0; i < c.workers; ++i) workers_.push_back(std::make_unique<worker<P, Pol>>(*this, i));
    if constexpr (requires { policy_.set_tracer(tracer_); }) policy_.set_tracer(tracer_);
  }

  /// Runs `w` to quiescence. Call once.
  run_result run(workload& w) {
    w.start(injector_);
    std::uint64_t t0 = plat_.now_ns();
    for (auto& wk : workers_) {
      auto* raw = wk.get();
      plat_.start_worker(int(raw->index()), [raw] { raw->loop(); });
    }
    plat_.join_workers();
    std::uint64_t t1 = plat_.now_ns();
    return collect(w, double(t1 - t0) * 1e-9);
  }

  // ---- used by workers and policies ----

  P& plat() { return plat_; }
  Pol& policy() { return policy_; }
  parking<P>& sleepers() { return park_; }
  envelope_depot<P>& depot() { return depot_; }
  const scheduler_config& config() const { return cfg_; }
  bool done() const { return done_.load(std::memory_order_acquire); }  // pairs with finish's release
  bool tracing(trace_level l) const { return level_ >= l; }

  [[gnu::always_inline]] void trace(event_kind k, unsigned w, std::uint32_t actor, std::uint64_t msg,
                                    std::uint32_t other) {
    tracer_(k, w, actor, msg, other);
  }

  /// A worker found no work: true if it was the last and the system is quiescent (run over).
  bool enter_idle() {
    if (idle_.fetch_add(1, std::memory_order_acq_rel) + 1 != workers_.size()) return false;
    if (!quiescent()) return false;
    done_.store(true, std::memory_order_release);
    park_.wake_all();
    return true;
  }
  void leave_idle() { idle_.fetch_sub(1, std::memory_order_acq_rel); }

  /// Creates an actor owned by `owner` (a worker's list, or the injector's).
  /// `dummy` becomes the new mailbox's first envelope (mailbox.hpp).
  cell* adopt(arena<cell>& owner, envelope<P>* dummy, std::unique_ptr<behavior> b, const spawn_options& o, int by) {
    auto id = next_id_.fetch_add(1, std::memory_order_relaxed);
    cell* c = owner.emplace(id, std::move(b), o, dummy);
    policy_.on_spawn(*c, by);
    return c;
  }

  /// A behavior failed; the run goes on.
  void report(std::string what) {
    lock_guard g(errors_mutex_);
    errors_.push_back(std::move(what));
  }

  /// An invariant broke (test builds' actor guard): fail loudly, at once.
  [[noreturn]] void fatal(const std::string& what) {
    std::fprintf(stderr, "twinsched: invariant violated: %s\n", what.c_str());
    std::abort();
  }

 private:
  /// The context the workload's `start` uses: spawns and sends from outside any worker.
  class injector final : public context {
   public:
    explicit injector(scheduler& s) : s_(s), pool_(s.depot_) {}
    actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options& o) override {
      return actor_ref(s_.adopt(actors_, pool_.get(), std::move(b), o, -1));
    }
    void send(actor_ref to, const message& m) override {
      envelope<P>* e = pool_.get();
      e->msg = m;
      e->msg.sender = nullptr;
      e->id = ++sent_;
      auto& c = *static_cast<cell*>(to.get());
      if (s_.tracing(trace_level::full)) s_.trace(event_kind::send, outside_worker, c.id(), e->id, 0);
      c.box().push(e);
      if (c.claim_after_push()) {
        if (s_.tracing(trace_level::decisions))
          s_.trace(event_kind::schedule, outside_worker, c.id(), e->id, std::uint32_t(push_reason::external));
        s_.policy_.push(-1, c, push_reason::external);
      }
    }
    void become(std::unique_ptr<behavior>) override { throw std::logic_error("become() outside an actor"); }
    void stop() override { throw std::logic_error("stop() outside an actor"); }
    void burn_ns(std::uint64_t) override {}
    void did_work_ns(std::uint64_t) override {}
    actor_ref self() const override { return {}; }

    scheduler& s_;
    envelope_pool<P> pool_;
    std::uint64_t sent_ = 0;  // written before workers start; read after
    arena<cell> actors_;
  };

  bool quiescent() const {
    std::uint64_t processed = 0, sent = injector_.sent_;
    for (auto& w : workers_) processed += w->processed();  // step 1
    for (auto& w : workers_) sent += w->sent();            // step 2
    return processed == sent;
  }

  template <class F>
  void for_each_actor(F&& f) {
    injector_.actors_.for_each(f);
    for (auto& w : workers_) w->spawned().for_each(f);
  }

  run_result collect(const workload& w, double wall_s) {
    run_result r;
    r.backend = "threads";
    r.policy = cfg_.policy;
    r.idle = cfg_.idle.strategy;
    r.workers = cfg_.workers;
    r.wall_s = wall_s;
    for (unsigned i = 0; i < workers_.size(); ++i) {
      worker_stats st = workers_[i]->stats();
      st.wakeups = park_.wakeups_by(i);
      r.messages += st.messages;
      r.dead_letters += workers_[i]->dead_letters();
      r.per_worker.push_back(st);
    }
    for_each_actor([&](cell& a) {
      if (!a.box().empty()) ++r.leftover;
      if (level_ != trace_level::off) r.per_actor.push_back({a.id(), a.group(), a.processed(), a.digest()});
    });
    r.leftover += policy_.queued();
    r.checksum = w.checksum();
    r.reference = w.reference_checksum();
    r.expected_messages = w.expected_messages();
    r.detail = w.detail();
    r.workload_ok = w.result_ok();
    r.errors = errors_;
    return r;
  }

  P& plat_;
  scheduler_config cfg_;
  parking<P> park_;
  envelope_depot<P> depot_;
  Pol policy_;
  trace_level level_;
  tracer<P> tracer_{plat_, level_};
  std::vector<std::unique_ptr<worker<P, Pol>>> workers_;
  injector injector_;
  typename P::template atomic<std::uint32_t> next_id_{1};
  alignas(64) typename P::template atomic<std::uint32_t> idle_{0};
  typename P::template atomic<bool> done_{false};
  typename P::mutex errors_mutex_;
  std::vector<std::string> errors_;
};

}  // namespace twinsched
