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
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "behavior.hpp"
#include "mailbox.hpp"
#include "rng.hpp"

namespace twinsched {

class actor {
 public:
  std::uint32_t id() const { return id_; }
  std::uint64_t processed() const { return processed_; }
  bool stopped() const { return stopped_; }

  /// Worker or dispatcher this actor belongs to, for policies that bind actors (distribution,
  /// sharing, adaptive); unused by the others.
  std::uint32_t home = 0;
  /// Worker that last ran it (the simulator charges state migration when this changes).
  std::uint32_t last_worker = ~0u;

 protected:
  actor(std::uint32_t id, std::unique_ptr<behavior> b) : behavior_(std::move(b)), id_(id) {}
  ~actor() = default;

  std::unique_ptr<behavior> behavior_;
  std::uint64_t processed_ = 0;  // owner-written; read after quiescence
  std::uint64_t digest_ = 0;     // owner-written, while tracing; read after quiescence (actor_cell)
  std::uint32_t id_;
  bool stopped_ = false;
};

static_assert(sizeof(actor) == 40, "actor_cell's first cache line holds the base and the mailbox (see below)");

template <class P>
class alignas(64) actor_cell final : public actor {
 public:
  actor_cell(std::uint32_t id, std::unique_ptr<behavior> b, const spawn_options& o)
      : actor(id, std::move(b)), group_(o.group), state_bytes_(o.state_bytes) {
    if (!o.name.empty()) name_ = std::make_unique<std::string>(o.name);
  }

  /// Group of equal actors (donation), 0 if none.
  std::uint32_t group() const { return group_; }
  /// Bytes of state that move with the actor to another core (the simulator charges them).
  std::uint32_t state_bytes() const { return state_bytes_; }

  /// The name given at spawn, or "actor#<id>" (errors and traces).
  std::string name() const { return name_ ? *name_ : "actor#" + std::to_string(id()); }

  /// Send: true if the actor was idle and the caller must now hand it to the policy.
  bool push(envelope<P>* e) { return mailbox_.push(e); }

  /// Release step 2: true if the owner must reschedule the actor after all. Else the actor
  /// is idle and `spent` is the mailbox's last envelope, the caller's to recycle.
  bool release(envelope<P>*& spent) { return !mailbox_.try_idle(spent); }

  /// The owner of a drained actor (worker.hpp, holding): true if a message came in since.
  bool has_new_mail() const { return mailbox_.pushed_since_empty(); }

  /// Takes an idle actor without a message (donation hands it messages afterwards), with
  /// `dummy` as its mailbox's dummy; on failure `dummy` stays the caller's.
  bool try_claim(envelope<P>* dummy) { return mailbox_.try_claim(dummy); }

  /// While tracing or in `checks` runs: the number this actor's next send carries (owner
  /// only): its message id (envelope.hpp) and, in `checks` runs, per-sender order.
  std::uint64_t next_send_seq() { return ++sends_; }
  /// `checks` runs, per-sender order (owner only): true if `seq` comes after every message
  /// from `sender` this actor processed so far. Donated messages are not checked (a donation
  /// group does not keep per-sender order).
  bool in_order_from(std::uint32_t sender, std::uint64_t seq) {
    if (!last_from_) last_from_ = std::make_unique<std::unordered_map<std::uint32_t, std::uint64_t>>();
    std::uint64_t& last = (*last_from_)[sender];
    if (seq <= last) return false;
    last = seq;
    return true;
  }

  /// Test builds: the guard that fails loudly if two workers own the actor at once.
  /// Returns the worker that already ran it (nonzero) on violation.
  std::uint32_t enter(std::uint32_t worker) { return running_.exchange(worker + 1, std::memory_order_acq_rel); }
  void leave() { running_.store(0, std::memory_order_release); }

  mailbox<P>& box() { return mailbox_; }
  behavior* current() { return behavior_.get(); }
  void replace(std::unique_ptr<behavior> b) { behavior_ = std::move(b); }
  void set_stopped() { stopped_ = true; }
  void count_processed() { ++processed_; }
  /// Sum over delivered messages of a hash of their payload (a, b, tag), recorded only while
  /// tracing: equal for two runs that delivered the same messages to this actor, in any order.
  std::uint64_t digest() const { return digest_; }
  void note_delivery(const message& m) {
    digest_ += splitmix64(m.a ^ (m.b * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t(m.tag) << 32 | m.tag));
  }

  // Hot first: the base class is 40 bytes, so the mailbox's head and tail (with the idle
  // bit) share the cell's first cache line with the behavior pointer and, while tracing, the
  // delivery digest written per message (in the second line it cost one more cache-line
  // transfer whenever the actor changed cores: ~4 points of decisions-level overhead on
  // forward); cold fields follow.
 private:
  mailbox<P> mailbox_;
  typename P::template atomic<std::uint32_t> running_{0};

 public:
  /// Intrusive link for lock-based FIFO run queues (shared-queue); owned by that queue.
  actor_cell* next_runnable = nullptr;

 private:
  std::uint32_t group_, state_bytes_;
  std::unique_ptr<std::string> name_;  // only when given: idle actors stay small
  std::uint64_t sends_ = 0;            // while tracing or `checks` (message ids, per-sender order)
  std::unique_ptr<std::unordered_map<std::uint32_t, std::uint64_t>> last_from_;  // `checks` runs only; looked up, never iterated
};

}  // namespace twinsched
