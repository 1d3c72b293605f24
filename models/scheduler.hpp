// The scheduler: owns workers, policy, parking and pools; runs a workload to quiescence on a platform.
//
// Overview
//   `scheduler<P, Pol>` is the whole runtime for one run: the workload's `start` spawns and
//   sends through the injector context (before any worker exists), then one worker per
//   configured thread runs until the system is quiescent, then results are collected.
//
// Quiescence (how a run knows it is over)
//   Every worker counts messages it sent and processed (worker.hpp); the injector counts
//   what it sent. A worker that finds no work enters idle and increments the idle count
//   (`counts_`, below); the one that makes it equal to the running worker count checks:
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
//
// A changing number of workers (policies that declare caps.scales_workers: adaptive)
//   The worker objects for every slot (Pol::slots, up to max_workers) exist from the start;
//   only `workers` threads start with the run. `counts_` packs the number of running
//   workers (high 32 bits) and of idle ones (low 32 bits) into one word, so that "every
//   running worker is idle" is read in one atomic step:
//     enter idle:  counts_ += 1            -> check quiescence if idle == running
//     leave idle:  counts_ -= 1
//     start:       counts_ += 1 << 32      -- only by a worker that is not idle (it is
//                                             running a turn), so idle < running before
//                                             and after: no check is due
//     retire:      counts_ -= (1 << 32) + 1 -- only by an idle worker, after the policy took
//                                             every queued actor off it (policy.hpp);
//                                             -> check quiescence if idle == running
//   Why the last idle worker still checks: every transition that can make idle equal to
//   running (enter idle, retire) is followed by the check, made by the worker that made
//   it; a start never can. The counters the check sums cover every slot ever started, and
//   a retired worker's counters are final. A retiring worker holds no message: the ones
//   queued for it were moved (by the policy) before it retires, and until they are moved
//   they are counted sent and not processed, so the check fails rather than end the run.
//   Starting threads: `plat.start_worker` is called under `start_mutex_` (the platform's
//   list of threads is not concurrent), and the thread that called run() waits on a parker
//   until `done_` before it calls `join_workers`, so no start can race the join: a start
//   happens inside a turn, which ends before its worker goes idle, which precedes done_.
//   A slot is reused only after its previous thread stored `slot_busy_ = 0` as its very
//   last touch of the worker object (release; the reserving CAS acquires it).
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "actor.hpp"
#include "actor_arena.hpp"
#include "config.hpp"
#include "envelope_pool.hpp"
#include "parking.hpp"
#include "platform.hpp"
#include "run_result.hpp"
#include "log_histogram.hpp"
#include "timer_service.hpp"
#include "trace_event.hpp"
#include "tracer.hpp"
#include "worker.hpp"
#include "workload/workload.hpp"

namespace twinsched {

template <platform P, class Pol>
class scheduler final : public worker_control {
  static_assert(check_policy<Pol, P>());  // policy.hpp: the interface and its capabilities

 public:
  using cell = actor_cell<P>;

  /// Policies that start and retire workers during the run declare caps.scales_workers.
  static constexpr bool dynamic = Pol::caps.scales_workers;

  /// Worker slots: Pol::slots(c) for policies that grow (adaptive), else c.workers.
  static unsigned slot_count(const scheduler_config& c) {
    if constexpr (dynamic) return Pol::slots(c);
    else return c.workers;
  }

  /// `extra` goes to the policy's constructor after the policy_setup: for a policy that
  /// wraps another with state of its own (the simulator's replay_policy).
  template <class... Extra>
  scheduler(P& plat, const scheduler_config& c, std::uint64_t seed, trace_level level = trace_level::off,
            Extra&&... extra)
      : plat_(plat),
        cfg_(c),
        park_(slot_count(c)),
        level_(level),
        policy_(policy_setup<P>{park_, cfg_, seed, tracer_}, std::forward<Extra>(extra)...),
        injector_(*this),
        slot_busy_(std::make_unique<typename P::template atomic<std::uint32_t>[]>(slot_count(c))) {
    for (unsigned i = 0; i < slot_count(c); ++i) {
      workers_.push_back(std::make_unique<worker<P, Pol>>(*this, i));
      // the first `workers` slots are taken before any thread runs: a worker that starts
      // another one must not pick a slot the run() loop has yet to launch
      slot_busy_[i].store(i < c.workers ? 1 : 0, std::memory_order_relaxed);  // no thread yet
    }
  }

  /// Runs `w` to quiescence. Call once.
  run_result run(workload& w) {
    shared_size_ = w.shared_words();
    if (shared_size_ != 0) shared_ = std::make_unique<typename P::template atomic<std::uint64_t>[]>(shared_size_);  // all 0
    timers_on_ = w.uses_timers();
    w.start(injector_);
    if (timers_on_)  // platform contract 18; stopped by finish()
      plat_.start_service([this] { timers_.serve(plat_, [this](timer_entry<envelope<P>, cell>& e) { deliver_timer(e); }); });
    t0_ = plat_.now_ns();
    counts_.store(std::uint64_t(cfg_.workers) << 32, std::memory_order_relaxed);  // no worker yet: start_worker publishes it
    timeline_.emplace_back(0.0, cfg_.workers);
    if constexpr (dynamic) {
      lock_guard g(start_mutex_);  // a worker may start another one before this loop ends
      for (unsigned i = 0; i < cfg_.workers; ++i) launch(i);
    } else {
      for (unsigned i = 0; i < cfg_.workers; ++i) launch(i);
    }
    if constexpr (dynamic) {
      while (!done()) finished_.park();  // unparked by finish(); spurious returns re-check
    }
    plat_.join_workers();
    std::uint64_t t1 = plat_.now_ns();
    return collect(w, double(t1 - t0_) * 1e-9);
  }

  // ---- used by workers and policies ----

  P& plat() { return plat_; }
  Pol& policy() { return policy_; }
  parking<P>& sleepers() { return park_; }
  envelope_depot<P>& depot() { return depot_; }
  const scheduler_config& config() const { return cfg_; }
  bool done() const { return done_.load(std::memory_order_acquire); }  // pairs with finish's release
  bool tracing(trace_level l) const { return level_ >= l; }
  const tracer<P>& trace_gate() const { return tracer_; }

  [[gnu::always_inline]] void trace(event_kind k, unsigned w, std::uint32_t actor, std::uint64_t msg,
                                    std::uint32_t other) {
    tracer_(k, w, actor, msg, other);
  }

  /// A worker found no work: true if it was the last and the system is quiescent (run over).
  bool enter_idle() {
    std::uint64_t v = counts_.fetch_add(1, std::memory_order_acq_rel) + 1;
    if (std::uint32_t(v) != std::uint32_t(v >> 32)) return false;
    if (!quiescent()) return false;
    finish();
    return true;
  }
  void leave_idle() { counts_.fetch_sub(1, std::memory_order_acq_rel); }

  // ---- starting and retiring workers (dynamic policies only; see the essay) ----

  /// Reserves a slot with no thread: its index, or -1 if every slot has one.
  int reserve_worker() override {
    for (unsigned i = 0; i < workers_.size(); ++i) {
      std::uint32_t expected = 0;
      // acquire pairs with the release store a finished thread makes in launch()
      if (slot_busy_[i].compare_exchange_strong(expected, 1, std::memory_order_acquire, std::memory_order_relaxed))
        return int(i);
    }
    return -1;
  }
  /// Starts a thread on reserved slot `i`. Called by a worker that is not idle.
  void start_worker(unsigned i) override {
    if constexpr (dynamic) {
      change_running(std::int64_t(1) << 32);
      lock_guard g(start_mutex_);
      launch(i);
    } else {
      fatal("policy " + std::string(Pol::name) + " started a worker without declaring caps.scales_workers");
    }
  }
  /// Records the policy's running count in the timeline (worker_control::note_running).
  void note_running(int delta) override {
    lock_guard g(timeline_mutex_);
    timeline_.emplace_back(double(plat_.now_ns() - t0_) * 1e-9, unsigned(int(timeline_.back().second) + delta));
  }
  /// The calling worker (idle, its queue already emptied by the policy) leaves the run.
  void retire_worker() {
    std::uint64_t v = change_running(-((std::int64_t(1) << 32) + 1));
    if (std::uint32_t(v) == std::uint32_t(v >> 32) && !done() && quiescent()) finish();
  }
  /// Worker slot `i` (i < slots(); the slots never change after construction), for reading
  /// its counters from outside the run: a progress line. Real threads sum processed() (an
  /// atomic the worker already keeps); the simulator sums stats().messages, a plain read
  /// that is exact there (one actor runs at a time) and, unlike a simulated atomic's load,
  /// charges nothing, so it cannot perturb the run.
  const worker<P, Pol>& worker_at(unsigned i) const { return *workers_[i]; }
  unsigned slots() const { return unsigned(workers_.size()); }

  /// Creates an actor owned by `owner` (a worker's list, or the injector's); `b` is its
  /// behavior (a unique_ptr) or what builds it (a behavior_maker).
  template <class Behavior>
  cell* adopt(arena<cell>& owner, Behavior&& b, const spawn_options& o, int by) {
    auto id = next_id_.fetch_add(1, std::memory_order_relaxed);
    cell* c = owner.emplace(id, std::forward<Behavior>(b), o);
    policy_.on_spawn(*c, by);
    return c;
  }

  /// Shared word `i` (behavior.hpp, context::shared_load and shared_cas: the protocol and
  /// its cost), for the contexts: seq_cst, as Java's volatile fields.
  std::uint64_t shared_load(std::uint64_t i) { return shared_word(i).load(std::memory_order_seq_cst); }
  bool shared_cas(std::uint64_t i, std::uint64_t& expected, std::uint64_t desired) {
    return shared_word(i).compare_exchange_strong(expected, desired, std::memory_order_seq_cst, std::memory_order_seq_cst);
  }

  /// Sets a timer (context::send_after) for envelope `e`, already counted sent by its setter.
  void set_timer(std::uint64_t delay_ns, cell& to, envelope<P>* e, bool stamp) {
    timers_.add(plat_.now_ns() + delay_ns, to, e, stamp);
  }
  /// Throws unless the run has a timer service (call before counting a timer's message sent).
  void require_timers() const {
    if (!timers_on_)
      throw std::logic_error("send_after: the workload does not declare uses_timers(), so its run has no timer service");
  }

  /// A behavior failed; the run goes on.
  void report(std::string what) {
    lock_guard g(errors_mutex_);
    errors_.push_back(std::move(what));
  }

  /// The hang report: the run's counters, each worker (what it does, whether it is flagged
  /// asleep), the policy's queues and every actor with messages waiting. Called by a
  /// deadline (run/deadline.hpp) or the simulator's time limit while the run is
  /// presumed stuck: it takes no lock and does not stop the workers, so it is a snapshot
  /// (worker.hpp and policy/queue_report.hpp say which reads are unsynchronized).
  std::string state_report() {
    std::string out;
    std::uint64_t c = counts_.load(std::memory_order_relaxed);
    std::uint64_t sent = injector_.sent_, processed = 0;
    for (auto& w : workers_) sent += w->sent(), processed += w->processed();
    out += "run: policy " + std::string(Pol::name) + ", idle " + cfg_.idle.strategy + ", " + std::to_string(c >> 32) +
           " workers running, " + std::to_string(std::uint32_t(c)) + " idle, done " + (done() ? "yes" : "no") + "; sent " +
           std::to_string(sent) + " (injector " + std::to_string(injector_.sent_) + "), processed " +
           std::to_string(processed) + "; parking count " + std::to_string(park_.count()) + "\n";
    for (unsigned i = 0; i < workers_.size(); ++i) {
      auto& w = *workers_[i];
      out += "worker " + std::to_string(i) + ": " + phase_name(w.phase());
      if (const cell* a = w.running_actor()) out += ", in a turn of actor " + std::to_string(a->id());
      if (const cell* a = w.held_actor()) out += ", holds drained actor " + std::to_string(a->id());
      out += park_.flagged(i) ? ", flagged asleep" : ", not flagged asleep";
      out += "; sent " + std::to_string(w.sent()) + ", processed " + std::to_string(w.processed()) + ", turns " +
             std::to_string(w.stats().turns) + "\n";
    }
    out += "policy " + std::string(Pol::name) + ":\n";
    policy_.describe(out);
    std::size_t with_mail = 0, actors = 0, listed = 0;
    std::string mail;
    for_each_actor([&](cell& a) {
      ++actors;
      if (a.box().empty()) return;
      ++with_mail;
      if (++listed > 32) return;
      std::size_t n = a.box().backlog(1000);
      mail += "  actor " + std::to_string(a.id()) + " (" + a.name() + "): " + std::to_string(n) + (n >= 1000 ? "+" : "") +
              " message" + (n == 1 ? "" : "s") + " waiting\n";
    });
    out += "mailboxes: " + std::to_string(with_mail) + " of " + std::to_string(actors) + " actors have messages waiting" +
           (with_mail > 32 ? " (first 32 listed)" : "") + "\n" + mail;
    return out;
  }

  /// An invariant broke (a `checks` run's guards): fail loudly, at once, through the
  /// platform (contract 16: the simulator turns it into a failed run that names it).
  [[noreturn]] void fatal(const std::string& what) {
    plat_.fail("invariant violated: " + what);
    std::abort();  // not reached: fail never returns
  }

 private:
  /// The context the workload's `start` uses: spawns and sends from outside any worker.
  class injector final : public context {
   public:
    explicit injector(scheduler& s) : s_(s), pool_(s.depot_) {}
    actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options& o) override {
      return actor_ref(s_.adopt(actors_, std::move(b), o, -1));
    }
    actor_ref spawn_made(const behavior_maker& m, const spawn_options& o) override {
      return actor_ref(s_.adopt(actors_, m, o, -1));
    }
    void send(actor_ref to, const message& m) override {
      envelope<P>* e = pool_.get();
      e->msg = m;
      e->msg.sender = nullptr;
      e->id = ++sent_;
      e->seq = 0;  // from outside: no sender whose order to check
      auto& c = *static_cast<cell*>(to.get());
      if (s_.tracing(trace_level::full)) s_.trace(event_kind::send, outside_worker, c.id(), e->id, 0);
      s_.push_from_outside(c, e, sent_, false);  // sent_ is e's id; e itself is the mailbox's once pushed
    }
    void become(std::unique_ptr<behavior>) override { throw std::logic_error("become() outside an actor"); }
    void stop() override { throw std::logic_error("stop() outside an actor"); }
    void burn_ns(std::uint64_t) override {}
    void did_work_ns(std::uint64_t) override {}
    actor_ref self() const override { return {}; }
    std::uint64_t now_ns() const override { return s_.plat_.now_ns(); }
    void send_after(actor_ref to, const message& m, std::uint64_t delay_ns, bool stamp_arrival) override {
      s_.require_timers();
      envelope<P>* e = pool_.get();
      e->msg = m;
      e->msg.sender = nullptr;
      e->id = ++sent_;  // counted sent now: the run waits for it
      e->seq = 0;
      s_.set_timer(delay_ns, *static_cast<cell*>(to.get()), e, stamp_arrival);
    }
    unsigned worker_count() const override { return s_.cfg_.workers; }
    std::uint64_t shared_load(std::uint64_t i) override { return s_.shared_load(i); }
    bool shared_cas(std::uint64_t i, std::uint64_t& expected, std::uint64_t desired) override {
      return s_.shared_cas(i, expected, desired);
    }

    scheduler& s_;
    envelope_pool<P> pool_;
    std::uint64_t sent_ = 0;  // written before workers start; read after
    arena<cell> actors_;
  };

  typename P::template atomic<std::uint64_t>& shared_word(std::uint64_t i) {
    if (i >= shared_size_)
      throw std::out_of_range("shared word " + std::to_string(i) + " of a table of " + std::to_string(shared_size_));
    return shared_[i];
  }

  void launch(unsigned i) {  // slot i is taken (constructor, or reserve_worker)
    auto* raw = workers_[i].get();
    auto* busy = &slot_busy_[i];
    plat_.start_worker(int(i), [raw, busy] {
      raw->loop();
      busy->store(0, std::memory_order_release);  // last touch of the slot; pairs with reserve_worker
    });
  }

  /// The timer service's delivery (timer_service.hpp): as the injector's, from outside a worker.
  void deliver_timer(timer_entry<envelope<P>, cell>& t) {
    const std::uint64_t now = plat_.now_ns();
    if (t.stamp) {
      t.what->msg.b = now;
      t.what->msg.flags |= message_stamped;
    }
    push_from_outside(*t.to, t.what, 0, true, now);  // every timer's push: its turn records the delay
  }

  /// A push from outside any worker (the workload's start, the timer service), traced with
  /// `traced_id`; `sampled`: its turn records the scheduling delay from `now`.
  void push_from_outside(cell& c, envelope<P>* e, std::uint64_t traced_id, bool sampled, std::uint64_t now = 0) {
    if (!c.push(e)) return;
    if (tracing(trace_level::decisions))
      trace(event_kind::schedule, outside_worker, c.id(), traced_id, std::uint32_t(push_reason::external));
    if (sampled) c.mark_runnable(now);
    policy_.push(-1, c, push_reason::external);
  }

  void finish() {
    done_.store(true, std::memory_order_release);
    if (timers_on_) timers_.stop();
    park_.wake_all();
    if constexpr (dynamic) finished_.unpark();
  }

  /// Adds `delta` to counts_ (the timeline is the policy's: note_running).
  std::uint64_t change_running(std::int64_t delta) {
    return counts_.fetch_add(std::uint64_t(delta), std::memory_order_acq_rel) + std::uint64_t(delta);
  }

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
    r.backend = P::backend_name;
    r.policy = cfg_.policy;
    r.idle = cfg_.idle.strategy;
    r.workers = cfg_.workers;
    r.wall_s = wall_s;
    for (unsigned i = 0; i < workers_.size(); ++i) {
      worker_stats st = workers_[i]->stats();
      st.wakeups = park_.wakeups_by(i);
      policy_.add_stats(i, st);
      r.messages += st.messages;
      r.dead_letters += workers_[i]->dead_letters();
      r.per_worker.push_back(st);
    }
    for_each_actor([&](cell& a) {
      if (!a.box().empty()) ++r.leftover;
      if (level_ != trace_level::off) {
        actor_stats st{a.id(), a.group()};  // `delivered`: the recorder counts it (delivery_tally.hpp)
        if (level_ == trace_level::full)
          for (auto& wk : workers_) st.digest += wk->tally().digest(a.id());
        r.per_actor.push_back(st);
      }
    });
    r.leftover += policy_.queued();
    log_histogram latency, delay;
    for (auto& wk : workers_) {
      latency.merge(wk->latency());
      delay.merge(wk->scheduling_delay());
    }
    r.request_latency = latency.summary();
    r.scheduling_delay = delay.summary();
    r.scheduling_sample = worker<P, Pol>::scheduling_sample;
    r.timers = timers_.delivered();
    r.timer_late_mean_ns = timers_.late_mean_ns();
    r.timer_late_max_ns = timers_.late_max_ns();
    r.checksum = w.checksum();
    r.reference = w.reference_checksum();
    r.expected_messages = w.expected_messages();
    r.detail = w.detail();
    r.workload_ok = w.result_ok();
    r.errors = errors_;
    r.thread_timeline = timeline_;
    for (auto& [t, n] : timeline_) {
      if (n > r.peak_workers) {
        r.peak_workers = n;
        r.scale_up_s = timeline_.size() > 1 && n > timeline_.front().second ? t - first_growth() : 0;
      }
    }
    r.final_workers = timeline_.back().second;
    return r;
  }

  /// Seconds from the run's start to the first time the thread count grew.
  double first_growth() const {
    for (std::size_t k = 1; k < timeline_.size(); ++k)
      if (timeline_[k].second > timeline_[k - 1].second) return timeline_[k].first;
    return 0;
  }

  P& plat_;
  scheduler_config cfg_;
  parking<P> park_;
  envelope_depot<P> depot_;
  trace_level level_;
  tracer<P> tracer_{plat_, level_};  // before policy_, which keeps a reference
  Pol policy_;
  std::vector<std::unique_ptr<worker<P, Pol>>> workers_;
  injector injector_;
  typename P::template atomic<std::uint32_t> next_id_{1};
  std::unique_ptr<typename P::template atomic<std::uint64_t>[]> shared_;  // the workload's shared words
  std::uint64_t shared_size_ = 0;
  std::unique_ptr<typename P::template atomic<std::uint32_t>[]> slot_busy_;  // 1 while a thread owns the slot
  std::uint64_t t0_ = 0;
  alignas(64) typename P::template atomic<std::uint64_t> counts_{0};  // running << 32 | idle
  typename P::template atomic<bool> done_{false};
  timer_service<P, envelope<P>, cell> timers_;  // serves only when the workload uses timers
  bool timers_on_ = false;                      // set before start(); read-only after
  typename P::mutex errors_mutex_;
  std::vector<std::string> errors_;
  typename P::mutex start_mutex_;     // serializes plat_.start_worker (dynamic policies)
  typename P::parker finished_;       // the run() caller waits here for done_ (dynamic policies)
  typename P::mutex timeline_mutex_;
  std::vector<std::pair<double, unsigned>> timeline_;  // (seconds since start, running workers)
};

}  // namespace twinsched
