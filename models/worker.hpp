// A worker: the loop that takes runnable actors from the policy, runs their turns, and idles when there are none.
//
// Overview
//   One worker per platform thread (std::thread, or an S4U actor on a modeled core). The
//   worker is also the `context` behaviors act through while it runs them, so sends,
//   spawns and envelope recycling use worker-private state: no lock and no allocation on
//   the hot path.
//
// The loop
//   1. a = policy.pop(w)               -- own queue, shared queue, steal: the policy's choice
//   2. if a: run a's turn (up to `burst` messages), go to 1
//   3. else enter idle once per idle spell (scheduler.hpp checks quiescence there), then
//      follow the idle strategy: retry, spin, yield, or park through parking.hpp, and go to 1
//   4. leave when the scheduler says the run is done, or, for policies that retire idle
//      workers (adaptive), when the policy's `try_retire` says so after the worker has
//      been idle: the policy has then taken every queued actor off this worker, and the
//      worker's last act is `scheduler::retire_worker` (scheduler.hpp's counting argument).
//
// Policy hooks, called only for the capabilities the policy declares (policy.hpp), with
// this worker's policy_port: observes_work: `after_message` after each message, `on_idle`
// each time the worker finds no work; scales_workers: `try_retire` while idle,
// `park_limit_ns` to bound parks (a worker that may retire must wake up to notice it has
// been idle long enough); forces_turns: `turn_burst` bounds the turn just popped (replay:
// the recorded turn's messages), and with `picks_messages` the policy hands the turn its
// messages itself (`next_message`, then `end_turn`: replay of a real run, message-exact).
//
// A turn (the actor's state machine is in actor.hpp)
//   - pop a message, process it, recycle its envelope, count it; stop after `burst`
//   - if the mailbox drained: release the actor (it may come straight back if a message
//     raced in); if `burst` ran out or a producer is mid-push: push it back to the policy
//   - in test builds (`checks`), a guard aborts if a second worker enters the same actor.
//
// Holding a drained actor (policies that declare caps.holds_drained)
//   A turn that drains its actor does not release it: the worker keeps it as `held_`, still
//   owned (not idle) and in no queue, for the length of one more turn. Then it settles it:
//   if a message reached it meanwhile (the sender found it owned, so did not schedule it),
//   the worker hands it to the policy as `sent`; if not, it releases it (the CAS of
//   actor.hpp's release; a push that won the race makes it a `yielded` push instead).
//   When:   after every turn (the held actor of the turn before), and when the policy has no
//           work for the worker (before it goes idle: an idle or parked worker holds nothing,
//           and a worker that leaves the run holds nothing).
//   Why:    in a message chain that comes back (pingpong: A -> B -> A), the reply reaches A
//           while it is held: no release CAS and no schedule for A. And the holder is A's
//           owner, so the reply goes onto A's owner list (mailbox.hpp `push_owned`: plain
//           writes) unless mail from elsewhere waits in A's mailbox: no locked instruction
//           at all per message on one core.
//   Why no message is stranded: a held actor is owned, so actor.hpp's argument holds with
//           the holding worker as the owner; the worker looks at its mailbox when it
//           settles it, after at most one turn, and before it can idle or stop. Quiescence
//           is unaffected: a message waiting in a held actor is sent and not processed.
//   Cost:   a held actor with mail waits for one turn of another actor, out of thieves'
//           reach (like stealing's LIFO slot); and a message from another worker to a held
//           actor makes it runnable on the holder, not on the sender, which may then have
//           to steal. Turns whose messages the policy picked (message-exact replay) release
//           as before.
//   When it does not pay: a hold pays when the held actor has mail by the time it is
//           settled. After a hold that did not (forward: tokens move on to other actors),
//           the worker releases drained actors at once for its next `hold_probe` drained
//           turns, then holds one again, as a probe. (Without this, forward ran longer on many
//           simulated cores: every collision of a token with a held actor cost a steal.)
//
// Latency and CPU (what an idle strategy trades: run_result.hpp)
//   - A request's latency is what its behavior measures and records (record_latency) into
//     this worker's log-linear histogram: fixed size, no allocation, merged at the end.
//   - The scheduling delay (runnable to running): a push to the policy stamps the actor's
//     `runnable_at` with the clock, and the turn it makes records now - runnable_at. Every push
//     from outside (a timer's delivery, scheduler.hpp) is stamped; a worker stamps one push in
//     `scheduling_sample`, chosen by the counters it keeps anyway (its sends for a sent push,
//     its turns for a reschedule: the same pushes in every simulation), so that a message
//     chain pays a clock read per 64 pushes, not two per message, and no store.
//   - CPU: the platform's cpu_ns() (contract 19) at the loop's start and end, and the time
//     blocked in parks (parked_ns, timed with now_ns around them: the slow path).
//
// Termination counters: `sent_` and `processed_` are written only by this worker, after the
// fact they count (a message is counted sent before it is pushed, processed after its
// handler's own sends), which is what the scheduler's quiescence check relies on.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "actor.hpp"
#include "actor_arena.hpp"
#include "config.hpp"
#include "cost_profile.hpp"
#include "delivery_tally.hpp"
#include "envelope_pool.hpp"
#include "log_histogram.hpp"
#include "idle/idle_strategy.hpp"
#include "platform.hpp"
#include "policy/policy.hpp"
#include "run_result.hpp"
#include "trace_event.hpp"

namespace twinsched {

template <platform P, class Pol>
class scheduler;

/// What a worker is doing, for the hang report (scheduler::state_report).
enum class worker_phase : std::uint8_t { not_started, running, idle, parked, parked_for, stopped };

inline const char* phase_name(worker_phase p) {
  switch (p) {
    case worker_phase::not_started: return "not started";
    case worker_phase::running: return "running";
    case worker_phase::idle: return "idle (not parked)";
    case worker_phase::parked: return "parked, no timeout (waits for a wake-up)";
    case worker_phase::parked_for: return "parked with a timeout";
    case worker_phase::stopped: return "stopped";
  }
  return "?";
}

template <platform P, class Pol>
class worker final : public context {
 public:
  using sched_t = scheduler<P, Pol>;
  using cell = actor_cell<P>;

  worker(sched_t& s, unsigned index)
      : s_(s), index_(index), pool_(s.depot()),
        idle_(s.config().idle, crowding(s.config().workers, s.plat().hardware_workers())), burst_(s.config().burst),
        checks_(s.config().checks), level_(s.trace_gate().level()), sink_(s.plat().sink_of(index)),
        costs_(s.plat().turn_costs()),
        port_(index, s.plat(), s.trace_gate(), stats_, pool_, s) {}

  void loop() {
    s_.trace(event_kind::worker_start, index_, 0, 0, 0);  // at every level: the checked path
    phase_ = worker_phase::running;
    const std::uint64_t cpu_at_start = s_.plat().cpu_ns();
    // busy_ns is the time of spells that ran turns: from the turn that ends an idle spell to
    // the next time the worker finds no work. A spell without a turn (the start, when the
    // first look finds nothing, however long the thread took to get there) is idle time.
    std::uint64_t mark = s_.plat().now_ns(), turns_at_mark = 0;
    auto spell = [&]() -> std::uint64_t& { return stats_.turns != turns_at_mark ? stats_.busy_ns : stats_.idle_ns; };
    bool idle = false, retired = false;
    unsigned round = 0;
    for (;;) {
      if (cell* a = s_.policy().pop(index_, stats_)) {
        if (idle) {
          idle = false;
          phase_ = worker_phase::running;
          round = 0;
          s_.leave_idle();
          mark = account(stats_.idle_ns, mark);
          turns_at_mark = stats_.turns;
        }
        run_turn(*a);
        continue;
      }
      if constexpr (Pol::caps.holds_drained) {
        if (cell* h = std::exchange(held_, nullptr); h && settle(*h)) continue;  // it had mail
      }
      if constexpr (Pol::caps.observes_work) s_.policy().on_idle(port_);
      if (!idle) {
        idle = true;
        phase_ = worker_phase::idle;
        mark = account(spell(), mark);
        if (tracing(trace_level::decisions)) emit(event_kind::idle, 0, 0, 0);
        if (s_.enter_idle()) break;
      }
      if (s_.done()) break;
      if constexpr (Pol::caps.scales_workers) {
        if (s_.policy().try_retire(port_)) {
          retired = true;
          break;
        }
      }
      idle_step(round++);
    }
    account(idle ? stats_.idle_ns : spell(), mark);
    stats_.cpu_ns = s_.plat().cpu_ns() - cpu_at_start;
    phase_ = worker_phase::stopped;
    s_.trace(event_kind::worker_stop, index_, 0, 0, 0);
    if (retired) s_.retire_worker();  // last: it may end the run
  }

  // ---- context: what behaviors call while this worker runs them ----

  actor_ref spawn(std::unique_ptr<behavior> b, const spawn_options& o) override {
    runtime_part_begins();
    const actor_ref r(s_.adopt(spawned_, std::move(b), o, int(index_)));
    runtime_part_ends();
    return r;
  }
  actor_ref spawn_made(const behavior_maker& m, const spawn_options& o) override {
    runtime_part_begins();
    const actor_ref r(s_.adopt(spawned_, m, o, int(index_)));
    runtime_part_ends();
    return r;
  }

  void send(actor_ref to, const message& m) override { send_envelope(to, m, 0); }
  /// A message with data (context::send_data): the envelope says how many bytes until the
  /// turn that reads them (process), and the platform learns which core wrote them.
  void send_data(actor_ref to, const message& m, std::uint32_t bytes) override { send_envelope(to, m, bytes); }

  [[gnu::always_inline]] void send_envelope(actor_ref to, const message& m, std::uint32_t data_bytes) {
    runtime_part_begins();
    P::runtime_work(runtime_op::envelope);  // this get and the put that recycles it (platform.hpp 15)
    envelope<P>* e = pool_.get();
    // Field by field, not as one block copy: the behavior has just stored `m` on its stack
    // field by field, and a 16-byte load over two 8-byte stores still in the store buffer
    // cannot be forwarded from them: it waits for them to reach the cache (a large part of a
    // pingpong message's time: docs/PERFORMANCE.md). A load per field is forwarded.
    copy_fields(e->msg, m);
    s_.plat().touch_message(e->slot, touch_at::push);  // platform.hpp 14
    if (data_bytes) {  // a plain send's envelope holds 0 already (process puts it back)
      e->data_bytes = data_bytes;
      s_.plat().touch_data(e->slot, data_bytes, touch_at::push);  // platform.hpp 14b
    }
    e->msg.sender = current_;
    ++sent_local_;
    // numbered by the sending actor, so that ids survive a different schedule (replay). Only
    // full traces name messages (a decisions trace's schedule and donate events carry 0:
    // numbering was a measurable part of that level's overhead on forward, docs/PERFORMANCE.md);
    // the checks need the sequence number only.
    if ((checks_ || tracing(trace_level::full)) && current_) {
      e->seq = current_->next_send_seq();
      e->id = tracing(trace_level::full) ? message_id(current_->id(), e->seq) : 0;
    } else {
      e->seq = e->id = 0;
    }
    sent_.store(sent_local_, std::memory_order_release);  // read by the quiescence check
    deliver(*static_cast<cell*>(to.get()), e);
    runtime_part_ends();
  }

  /// Delivers a ready envelope (send).
  void deliver(cell& to, envelope<P>* e) {
    const std::uint64_t id = e->id;  // once pushed, `e` may be consumed and recycled by another worker
    if (tracing(trace_level::full)) emit(event_kind::send, to.id(), id, 0);
    P::runtime_work(runtime_op::mailbox_push);
    s_.plat().touch_state(to.id(), to.state_bytes(), touch_at::push);  // the push writes its mailbox (platform.hpp 13)
    if constexpr (Pol::caps.holds_drained) {
      if (&to == held_ && to.box().push_owned(e)) return;  // ours: no locked instruction (see "Holding")
    }
    if (to.push(e)) {  // the actor was idle: this worker schedules it (actor.hpp)
      if (tracing(trace_level::full))
        emit(event_kind::schedule, to.id(), id, 0);
      else if (tracing(trace_level::decisions))
        emit(event_kind::schedule, to.id(), 0, 0);  // apart: the encoder sees the constant 0 (id is 0 here)
      if ((sent_local_ & (scheduling_sample - 1)) == 0) [[unlikely]]
        stamp_runnable(to);
      s_.policy().push(int(index_), to, push_reason::sent);
    }
  }

  void become(std::unique_ptr<behavior> b) override { become_ = std::move(b); }
  void stop() override { stop_ = true; }
  void burn_ns(std::uint64_t ns) override {
    turn_burned_ += ns;  // for the cost hook: the turn's own code is the rest
    s_.plat().burn_ns(ns);
  }
  void did_work_ns(std::uint64_t ns) override {
    turn_declared_ += ns;
    if (!costs_ || !costs_->replaces_declared) s_.plat().charge_ns(ns);
  }
  actor_ref self() const override { return actor_ref(current_); }
  std::uint64_t now_ns() const override { return s_.plat().now_ns(); }
  void send_after(actor_ref to, const message& m, std::uint64_t delay_ns, bool stamp_arrival) override {
    s_.require_timers();  // throws before anything is counted: the run must not wait for it
    runtime_part_begins();
    envelope<P>* e = pool_.get();
    copy_fields(e->msg, m);
    e->msg.sender = current_;
    ++sent_local_;
    // no sequence number: a timer's message is not ordered with the sender's other sends
    e->seq = 0;
    e->id = tracing(trace_level::full) && current_ ? message_id(current_->id(), current_->next_send_seq()) : 0;
    sent_.store(sent_local_, std::memory_order_release);  // counted sent now: the run waits for it
    s_.set_timer(delay_ns, *static_cast<cell*>(to.get()), e, stamp_arrival);
    runtime_part_ends();
  }
  void record_latency(std::uint64_t ns) override { hists_->latency.add(ns); }
  unsigned worker_count() const override { return s_.config().workers; }
  std::uint64_t shared_load(std::uint64_t i) override {
    runtime_part_begins();
    const std::uint64_t v = s_.shared_load(i);
    runtime_part_ends();
    return v;
  }
  bool shared_cas(std::uint64_t i, std::uint64_t& expected, std::uint64_t desired) override {
    runtime_part_begins();
    const bool swapped = s_.shared_cas(i, expected, desired);
    runtime_part_ends();
    return swapped;
  }

  // ---- read by the scheduler ----

  std::uint64_t sent() const { return sent_.load(std::memory_order_acquire); }
  std::uint64_t processed() const { return processed_.load(std::memory_order_acquire); }
  const worker_stats& stats() const { return stats_; }
  /// After the run: the requests' latency this worker recorded, and its sampled scheduling delays.
  const log_histogram& latency() const { return hists_->latency; }
  const log_histogram& scheduling_delay() const { return hists_->delay; }
  /// One push in this many is stamped for the scheduling delay (see "Latency and CPU"): a power of two.
  static constexpr std::uint32_t scheduling_sample = 64;
  static_assert((scheduling_sample & (scheduling_sample - 1)) == 0);
  /// While tracing at full level: the payloads each actor this worker ran was delivered here (after the run).
  const delivery_tally& tally() const { return tally_; }
  std::uint64_t dead_letters() const { return dead_letters_; }
  arena<cell>& spawned() { return spawned_; }
  unsigned index() const { return index_; }

  // ---- read by the hang report only (scheduler::state_report) ----
  // Plain fields the owner writes, read by another thread without synchronization: only
  // when a run is presumed stuck, as a diagnostic snapshot that may be stale. Never used
  // for a decision. (The report's thread tells TSan to ignore its reads: run/deadline.)
  worker_phase phase() const { return phase_; }
  const cell* running_actor() const { return current_; }
  const cell* held_actor() const { return held_; }

 private:
  // The checks' failures, out of line: the message is built only when one fails.
  [[noreturn, gnu::noinline, gnu::cold]] void entered_twice(const cell& a, std::uint32_t other) {
    s_.fatal("actor '" + a.name() + "' entered by worker " + std::to_string(index_) + " while worker " +
             std::to_string(other) + " runs it");
  }
  [[noreturn, gnu::noinline, gnu::cold]] void out_of_order(const cell& a, const envelope<P>& e) {
    s_.fatal("actor '" + a.name() + "' received message " + std::to_string(e.seq) + " of actor " +
             std::to_string(e.msg.sender->id()) + " after a later one (per-sender order)");
  }

  static void copy_fields(message& to, const message& from) {  // all but `sender`, which send sets
    static_assert(sizeof(message) == 32, "a field added to message must be copied here too");
    // volatile reads: the compiler may neither merge them into a wider load nor drop them
    to.a = static_cast<const volatile std::uint64_t&>(from.a);
    to.b = static_cast<const volatile std::uint64_t&>(from.b);
    to.tag = static_cast<const volatile std::uint32_t&>(from.tag);
    to.flags = static_cast<const volatile std::uint32_t&>(from.flags) & ~message_stamped;  // a forwarded timer's message is not stamped again
  }

  bool tracing(trace_level l) const { return level_ >= l; }
  /// One of this worker's trace events, through its own sink (platform.hpp contract 8).
  [[gnu::always_inline]] void emit(event_kind k, std::uint32_t actor, std::uint64_t msg, std::uint32_t other) {
    s_.trace_gate()(sink_, k, index_, actor, msg, other);
  }

  std::uint64_t account(std::uint64_t& bucket, std::uint64_t mark) {
    std::uint64_t now = s_.plat().now_ns();
    bucket += now - mark;
    return now;
  }

  void run_turn(cell& a) {
    P::runtime_work(runtime_op::turn);
    ++stats_.turns;
    if (a.runnable_at) [[unlikely]]
      record_delay(a);
    if (checks_) {
      if (std::uint32_t other = a.enter(index_)) [[unlikely]]
        entered_twice(a, other - 1);
    }
    // full: where this turn starts in the actor's receive order (replay orders its turns by it)
    const std::uint32_t last = a.last_worker();
    if (tracing(trace_level::full))
      emit(event_kind::run_begin, a.id(), a.received(), last);
    else if (tracing(trace_level::decisions))
      emit(event_kind::run_begin, a.id(), 0, last);  // apart: the encoder sees the constant 0
    // State moves with the actor (run_begin's `other` field above records from where), or
    // comes back from memory if it left the caches (platform.hpp 12 and 13).
    if (last != ~0u && last != index_) s_.plat().migrate_state(last, index_, a.state_bytes(), a.behavior_place());
    s_.plat().touch_state(a.id(), a.state_bytes(), touch_at::turn);
    a.set_last_worker(index_);
    current_ = &a;
    bool drained = false;
    std::uint32_t burst = burst_, n = 0;
    bool picked = false;
    if constexpr (Pol::caps.forces_turns) {
      burst = s_.policy().turn_burst(index_);
      if (s_.policy().picks_messages(index_)) {  // replay, message-exact: the recorded messages
        picked = drained = true;  // release below goes idle only if nothing else waits
        for (; n < burst; ++n) {
          envelope<P>* e = s_.policy().next_message(port_, a);
          if (!e) break;
          process(a, *e);
          if constexpr (Pol::caps.observes_work) s_.policy().after_message(port_, a);
          pool_.put(e);
        }
        s_.policy().end_turn(port_, a);
      }
    }
    for (; !picked && n < burst; ++n) {
      envelope<P>*e = nullptr, *spent = nullptr;
      auto st = a.box().pop(e, spent);
      if (st != mailbox<P>::pop_status::item) {
        drained = st == mailbox<P>::pop_status::empty;
        break;
      }
      process(a, *e);
      if (spent) pool_.put(spent);  // after: it may be `e` itself (mailbox.hpp, the owner's list)
      if constexpr (Pol::caps.observes_work) s_.policy().after_message(port_, a);
      if (n + 1 == burst) drained = a.box().empty();
    }
    current_ = nullptr;
    // `other`: the messages the turn processed (replay limits the turn to as many)
    if (tracing(trace_level::decisions)) emit(event_kind::run_end, a.id(), 0, n);
    if (checks_) a.leave();
    if constexpr (Pol::caps.holds_drained) {
      if (cell* before = std::exchange(held_, nullptr); before && !settle(*before))
        skip_holds_ = hold_probe;  // that hold did not pay: release at once for a while
      if (drained && !picked && skip_holds_ == 0) {
        held_ = &a;
      } else {
        if (drained && skip_holds_ != 0) --skip_holds_;
        finish(a, drained);
      }
    } else {
      finish(a, drained);
    }
  }

  /// After a turn: releases a drained actor (it may come straight back if a message raced
  /// in), or hands one with work left back to the policy. True if the policy has it now.
  bool finish(cell& a, bool drained) {
    envelope<P>* spent = nullptr;
    if (!drained || a.release(spent)) {
      reschedule(a, push_reason::yielded);
      return true;
    }
    pool_.put(spent);  // the idle mailbox's last envelope: it stays on this core
    return false;
  }

  /// The held actor's turn is over (see "Holding" above): true if it had mail and the policy
  /// has it now, false if it is idle.
  bool settle(cell& h) {
    if (!h.has_new_mail()) return finish(h, true);  // one load of its tail word; the CAS decides
    reschedule(h, push_reason::sent);
    return true;
  }

  void reschedule(cell& a, push_reason why) {
    if (tracing(trace_level::decisions)) emit(event_kind::schedule, a.id(), 0, std::uint32_t(why));
    if ((stats_.turns & (scheduling_sample - 1)) == 0) [[unlikely]]
      stamp_runnable(a);
    s_.policy().push(int(index_), a, why);
  }

  /// A sampled push (see "Latency and CPU"): the turn it makes records the delay.
  [[gnu::noinline]] void stamp_runnable(cell& a) {
    a.mark_runnable(s_.plat().now_ns());
  }
  [[gnu::noinline]] void record_delay(cell& a) {
    const std::uint64_t now = s_.plat().now_ns();
    hists_->delay.add(now > a.runnable_at ? now - a.runnable_at : 0);  // simulated workers' clocks may differ a little
    a.runnable_at = 0;
  }

  void process(cell& a, envelope<P>& e) {
    s_.plat().touch_message(e.slot, touch_at::turn);  // its message is read now (platform.hpp 14)
    if (e.data_bytes) [[unlikely]] {
      s_.plat().touch_data(e.slot, e.data_bytes, touch_at::turn);  // and its data (platform.hpp 14b)
      e.data_bytes = 0;
    }
    P::runtime_work(runtime_op::message);
    P::runtime_work(runtime_op::mailbox_pop);  // the pop that took it (per message, whichever path took it)
    if (tracing(trace_level::full)) emit(event_kind::message_begin, a.id(), e.id, 0);
    if (checks_ && e.seq && (e.msg.flags & message_donated) == 0 && !a.in_order_from(e.msg.sender->id(), std::uint32_t(e.seq)))
      [[unlikely]] out_of_order(a, e);
    if (a.stopped()) {
      ++dead_letters_;
    } else {
      try {
        if (costs_) [[unlikely]]
          measured_receive(*a.current(), e.msg);
        else
          a.current()->receive(*this, e.msg);
      } catch (const std::exception& ex) {
        s_.report("actor '" + a.name() + "' failed: " + ex.what());
        stop_ = true;
      } catch (...) {
        s_.report("actor '" + a.name() + "' failed: unknown exception");
        stop_ = true;
      }
      if (become_) a.replace(std::move(become_));
      if (stop_) {
        a.set_stopped();
        stop_ = false;
      }
    }
    if (tracing(trace_level::full)) emit(event_kind::message_end, a.id(), e.id, 0);
    if (tracing(trace_level::full)) {
      tally_.add(a.id(), e.msg);  // the run's per-actor payload digests (delivery_tally.hpp)
      a.count_received();
    }
    ++stats_.messages;
    processed_.store(stats_.messages, std::memory_order_release);  // read by the quiescence check
  }

  /// The runtime's work on a behavior's behalf inside its turn (a send, a spawn, a shared
  /// word) is not the behavior's own code for the cost hook (contract 17): a branch on null
  /// when there is none. No guard object: one that throws (an index past the shared words)
  /// ends the turn's measurement anyway, as the hook's end never comes, and a destructor in
  /// these frames gave AddressSanitizer a stale-poison false positive on SimGrid's context
  /// stacks, which it cannot see switch.
  void runtime_part_begins() {
    if (costs_) [[unlikely]] costs_->pause(index_);
  }
  void runtime_part_ends() {
    if (costs_) [[unlikely]] costs_->resume(index_);
  }

  /// A receive inside the cost hook (platform.hpp contract 17): measured on real cores, charged
  /// from a profile in simulation.
  void measured_receive(behavior& b, const message& m) {
    turn_burned_ = turn_declared_ = 0;
    const std::uint32_t tag = m.tag;
    costs_->begin(index_);
    b.receive(*this, m);
    s_.plat().charge_ns(costs_->end(index_, typeid(b), tag, turn_burned_, turn_declared_));
  }

  void idle_step(unsigned round) {
    idle_decision d = idle_.next(round);
    switch (d.what) {
      case idle_decision::retry: return;
      case idle_decision::spin: s_.plat().spin_pause(); return;
      case idle_decision::yield: s_.plat().yield_now(); return;
      case idle_decision::park_for:
      case idle_decision::park: break;
    }
    auto& park = s_.sleepers();
    park.announce(index_);  // parking.hpp sleeper step 1
    if (s_.policy().has_work(index_) || s_.done()) {  // step 2
      park.cancel(index_);
      return;
    }
    ++stats_.parks;
    if (tracing(trace_level::decisions)) emit(event_kind::park, 0, 0, 0);
    std::uint64_t limit = 0;  // 0: no bound
    if constexpr (Pol::caps.scales_workers) limit = s_.policy().park_limit_ns(index_);
    phase_ = d.what == idle_decision::park && !limit ? worker_phase::parked : worker_phase::parked_for;
    const std::uint64_t parked_at = s_.plat().now_ns();
    if (d.what == idle_decision::park) {
      if (limit) park.park_for(index_, limit);
      else park.park(index_);
    } else {
      park.park_for(index_, limit ? std::min(d.ns, limit) : d.ns);
    }
    stats_.parked_ns += s_.plat().now_ns() - parked_at;
    phase_ = worker_phase::idle;
    park.cancel(index_);  // step 4
    if (tracing(trace_level::decisions)) emit(event_kind::unpark, 0, 0, 0);
  }

  sched_t& s_;
  unsigned index_;
  envelope_pool<P> pool_;
  idle_strategy idle_;
  std::uint32_t burst_;
  bool checks_;
  trace_level level_;                // the run's; a copy in this worker's own lines
  typename P::trace_sink sink_;      // where its events go (contract 8)
  cell* current_ = nullptr;
  cell* held_ = nullptr;  // owner only (read by the hang report): see "Holding a drained actor"
  static constexpr std::uint32_t hold_probe = 64;
  std::uint32_t skip_holds_ = 0;  // owner only: drained turns still to release at once
  worker_phase phase_ = worker_phase::not_started;  // owner-written; hang report only
  std::unique_ptr<behavior> become_;
  bool stop_ = false;
  turn_cost_hook* costs_;  // the platform's (contract 17), or null: most runs
  std::uint64_t turn_burned_ = 0, turn_declared_ = 0;  // this turn's burn_ns and did_work_ns, for costs_
  std::uint64_t sent_local_ = 0, dead_letters_ = 0;
  worker_stats stats_;
  struct histograms {
    log_histogram latency, delay;
  };
  // owner only until the run ends; 16 KiB apart from the worker, whose hot fields stay close
  std::unique_ptr<histograms> hists_ = std::make_unique<histograms>();
  delivery_tally tally_;  // while tracing at full level; owner only until the run ends
  policy_port<P> port_;  // what the policy's hooks may do (policy.hpp)
  arena<cell> spawned_;
  alignas(64) typename P::template atomic<std::uint64_t> sent_{0};
  typename P::template atomic<std::uint64_t> processed_{0};
};

}  // namespace twinsched
