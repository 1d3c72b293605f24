// An actor: its mailbox, its behavior, and the idle/scheduled state machine that keeps it on one worker at a time.
//
// Overview
//   `actor` is the platform-independent part the public API points at (actor_ref, a
//   message's sender); `actor_cell<P>` adds the mailbox, which uses the platform's atomics
//   and also holds the actor's idle/scheduled state (mailbox.hpp: the idle bit of its
//   tail). An actor is *scheduled* from the moment someone decides it must run until a
//   worker that drained its mailbox releases it; while scheduled it sits in exactly one run
//   queue or runs on exactly one worker.
//
// Invariants
//   - not idle  <=>  the actor is in one run queue or owned by one worker.
//   - Only the owning worker pops the mailbox (the mailbox's single consumer).
//   - A message pushed while the actor is idle makes it scheduled (no message is stranded).
//
// Protocol (both steps are read-modify-writes of the mailbox's tail word; mailbox.hpp)
//   send:     1. if mailbox.push(e) says the actor was idle, the sender owns it now and
//                hands it to the policy
//   release:  1. the owner saw the mailbox drained (pop == empty)
//             2. mailbox.try_idle(): CAS the tail from the dummy to `idle` (the dummy goes
//                back to the owner's pool). If it fails, a message came in since step 1:
//                the owner keeps the actor and reschedules it
//   Why no message is stranded: the push's exchange and the owner's CAS act on the same
//   word, so one comes first. If the push does, the CAS fails and the owner runs on; if the
//   CAS does, the push sees the idle bit and schedules the actor. Never both, never neither.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "behavior.hpp"
#include "mailbox.hpp"
#include "platform.hpp"

namespace twinsched {

/// What actor_ref and a message's sender point at: the platform-independent part of an actor.
class actor {
 public:
  std::uint32_t id() const { return id_; }

 protected:
  explicit actor(std::uint32_t id) : id_(id) {}
  ~actor() = default;

 private:
  std::uint32_t id_;
};

namespace detail {

/// actor_cell's first cache line: what a turn and a send write. Kept a base of its own so that
/// it comes first in the cell and the `actor` base (the id, read-only during a run) starts the
/// second line.
template <class P>
struct alignas(64) cell_first_line {
  static constexpr std::uint16_t never_ran = 0xffff;
  /// Room for a behavior in the first line.
  static constexpr std::size_t inline_bytes = 32;

  /// While tracing or in `checks` runs: the sends so far (owner only). 32 bits, like the
  /// seq a message id keeps (envelope.hpp); `checks` compares them modulo 2^32.
  std::uint32_t sends_ = 0;
  bool stopped_ = false;
  std::uint8_t inline_at_ = 0;  // 1 + the behavior's offset in `inline_bytes`; 0: on the heap
  std::uint16_t last_worker_ = never_ran;  // workers <= 1024 (config.cpp)
  mailbox<P> mailbox_;
  alignas(std::max_align_t) std::byte inline_[inline_bytes];
};

}  // namespace detail

/// Layout: two cache lines. The first (detail::cell_first_line) holds what every message
/// writes on real cores: the mailbox (a send's exchange on its tail, the owner's pops), the
/// behavior, built there when it fits (`spawn_as`: 32 bytes; else on the heap), the turn's
/// bookkeeping (last worker) and, while tracing, the send count. So a message to an actor
/// last run on the other core waits for one line, not two (forward on 2 workers: a behavior
/// of its own, written per message, cost a second transfer, docs/PERFORMANCE.md; the trace's
/// per-actor counters written here cost a traced turn the same way).
/// The second holds what a run reads but does not write (the id, the behavior pointer, read
/// per message only for a behavior on the heap), so both cores keep a copy of it, plus what
/// only `checks` runs and the policies that bind actors to a home write.
template <class P>
class alignas(64) actor_cell final : private detail::cell_first_line<P>, public actor {
  using line = detail::cell_first_line<P>;

 public:
  using line::inline_bytes;

  actor_cell(std::uint32_t id, std::unique_ptr<behavior> b, const spawn_options& o)
      : actor(id), behavior_(b.release()), group_(o.group), state_bytes_(o.state_bytes) {
    if (!o.name.empty()) rare().name = o.name;
  }
  /// Builds the behavior in the cell if it fits, on the heap if not.
  actor_cell(std::uint32_t id, const behavior_maker& m, const spawn_options& o) : actor_cell(id, nullptr, o) {
    const bool fits = m.size <= inline_bytes && m.align <= alignof(std::max_align_t);
    behavior_ = m.make(fits ? this->inline_ : nullptr, m.args);
    if (fits)  // 1 + the behavior subobject's offset in B
      this->inline_at_ =
          std::uint8_t(1 + (reinterpret_cast<std::uintptr_t>(behavior_) - reinterpret_cast<std::uintptr_t>(this->inline_)));
  }
  actor_cell(const actor_cell&) = delete;
  actor_cell& operator=(const actor_cell&) = delete;
  ~actor_cell() { drop_behavior(); }

  bool stopped() const { return this->stopped_; }
  void set_stopped() { this->stopped_ = true; }
  /// Worker that last ran it, ~0 before its first turn (the simulator charges state
  /// migration when this changes; traces record it).
  std::uint32_t last_worker() const { return this->last_worker_ == line::never_ran ? ~0u : this->last_worker_; }
  void set_last_worker(std::uint32_t w) { this->last_worker_ = std::uint16_t(w); }

  /// Group of equal actors (donation), 0 if none.
  std::uint32_t group() const { return group_; }
  /// Bytes of state that move with the actor to another core (the simulator charges them).
  std::uint32_t state_bytes() const { return state_bytes_; }

  /// The name given at spawn, or "actor#<id>" (errors and traces).
  std::string name() const { return rare_ && !rare_->name.empty() ? rare_->name : "actor#" + std::to_string(id()); }

  /// Send: true if the actor was idle and the caller must now hand it to the policy.
  bool push(envelope<P>* e) { return this->mailbox_.push(e); }

  /// Release step 2: true if the owner must reschedule the actor after all. Else the actor
  /// is idle and `spent` is the mailbox's last envelope, the caller's to recycle.
  bool release(envelope<P>*& spent) { return !this->mailbox_.try_idle(spent); }

  /// The owner of a drained actor (worker.hpp, holding): true if a message came in since.
  bool has_new_mail() const { return this->mailbox_.pushed_since_empty(); }

  /// Takes an idle actor without a message (donation hands it messages afterwards), with
  /// `dummy` as its mailbox's dummy; on failure `dummy` stays the caller's.
  bool try_claim(envelope<P>* dummy) { return this->mailbox_.try_claim(dummy); }

  /// While tracing or in `checks` runs: the number this actor's next send carries (owner
  /// only), from 1, modulo 2^32: its message id (envelope.hpp) and, in `checks` runs,
  /// per-sender order.
  std::uint32_t next_send_seq() { return ++this->sends_; }
  /// `checks` runs, per-sender order (owner only): true if `seq` comes after every message
  /// from `sender` this actor processed so far, comparing seqs modulo 2^32 (serial-number
  /// order: right while one sender's messages in flight to it span less than 2^31 sends).
  /// Donated messages are not checked (a donation group does not keep per-sender order).
  bool in_order_from(std::uint32_t sender, std::uint32_t seq) {
    std::uint32_t& last = rare().last_from[sender];
    if (std::int32_t(seq - last) <= 0) return false;
    last = seq;
    return true;
  }

  /// Test builds: the guard that fails loudly if two workers own the actor at once.
  /// Returns the worker that already ran it (nonzero) on violation.
  std::uint32_t enter(std::uint32_t worker) { return running_.exchange(worker + 1, std::memory_order_acq_rel); }
  void leave() { running_.store(0, std::memory_order_release); }

  mailbox<P>& box() { return this->mailbox_; }
  /// Where the behavior lives (the simulator charges a migration by it: platform.hpp 12).
  behavior_at behavior_place() const { return this->inline_at_ ? behavior_at::in_cell : behavior_at::apart; }
  /// The behavior, read from the first line when it lives there: a turn on real cores then
  /// reads nothing from the second but the id, which no run writes.
  behavior* current() {
    return this->inline_at_ ? std::launder(reinterpret_cast<behavior*>(this->inline_ + (this->inline_at_ - 1))) : behavior_;
  }
  void replace(std::unique_ptr<behavior> b) {
    drop_behavior();
    behavior_ = b.release();
  }

  /// `full` traces (worker.hpp): the messages this actor processed, so each turn records
  /// where it starts in the actor's receive order. Not kept in the second line, which then
  /// stays unwritten at every level: senders read the id there (a traced send names its
  /// receiver), and a count written there per message made each such read from the other
  /// core a line transfer (docs/PERFORMANCE.md measures it on forward over 2 workers). It gets
  /// a line of its own instead, made at the actor's first `full` turn, which moves between
  /// cores only with the actor. Owner only: the turn's worker.
  std::uint64_t received() const { return received_ ? received_->n : 0; }
  void count_received() {
    if (!received_) [[unlikely]]
      received_ = std::make_unique<receive_count>();
    ++received_->n;
  }

 private:
  struct rare_fields {
    std::string name;                                           // only when given: idle actors stay small
    std::unordered_map<std::uint32_t, std::uint32_t> last_from;  // `checks` runs only; looked up, never iterated
  };
  rare_fields& rare() {
    if (!rare_) rare_ = std::make_unique<rare_fields>();
    return *rare_;
  }
  void drop_behavior() {
    if (this->inline_at_)
      behavior_->~behavior();
    else
      delete behavior_;
    behavior_ = nullptr;
    this->inline_at_ = 0;
  }

  // Second line, after the `actor` base's id: read per turn, written only as said above.
  behavior* behavior_;  // owned: in inline_, or on the heap
  struct alignas(64) receive_count {
    std::uint64_t n = 0;
  };
  std::unique_ptr<receive_count> received_;  // `full` traces only (count_received)

 public:
  /// Intrusive link for lock-based FIFO run queues (shared-queue); owned by that queue.
  actor_cell* next_runnable = nullptr;
  /// When the actor was last made runnable, if that push was sampled for the scheduling
  /// delay (worker.hpp, "Latency and CPU"); 0: not sampled. Written by the pusher before the
  /// policy has the actor, read and cleared by the worker that runs its next turn (the
  /// policy's queue orders the two, as it does for the actor itself). Before `home`: a
  /// 64-bit field after it would pad the second line past 64 bytes.
  std::uint64_t runnable_at = 0;
  /// Samples this push: the turn it makes records the delay from `now` (never 0, which means not sampled).
  void mark_runnable(std::uint64_t now) { runnable_at = now ? now : 1; }
  /// Worker or dispatcher this actor belongs to, for policies that bind actors (distribution,
  /// sharing, adaptive); unused by the others.
  std::uint32_t home = 0;

 private:
  std::uint32_t group_, state_bytes_;
  typename P::template atomic<std::uint32_t> running_{0};
  std::unique_ptr<rare_fields> rare_;
};

}  // namespace twinsched
