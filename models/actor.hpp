// An actor: its mailbox, its behavior, and the idle/scheduled state machine that keeps it on one worker at a time.
//
// Overview
//   `actor` is the platform-independent part the public API points at (actor_ref, a
//   message's sender); `actor_cell<P>` adds the mailbox and the state word, which use the
//   platform's atomics. An actor is *scheduled* from the moment someone decides it must run
//   until a worker that drained its mailbox releases it; while scheduled it sits in exactly
//   one run queue or runs on exactly one worker.
//
// Invariants
//   - state == scheduled  <=>  the actor is in one run queue or owned by one worker.
//   - Only the owning worker pops the mailbox (the mailbox's single consumer).
//   - A message pushed while the actor is idle makes it scheduled (no message is stranded).
//
// Protocol (a Dekker handshake between a sender and the owner going idle)
//   send:     1. mailbox.push(e)                (seq_cst exchange of tail)
//             2. if state.load(seq_cst) == idle and CAS(idle -> scheduled) succeeds,
//                the sender hands the actor to the policy (it now must run)
//   release:  1. the owner saw the mailbox drained (pop == empty)
//             2. state.store(idle, seq_cst)
//             3. if mailbox.pushed_since(mark) (seq_cst load of tail; `mark` is the dummy
//                read in step 1, while still the owner) and
//                CAS(idle -> scheduled) succeeds, the owner reschedules the actor
//   Why no message is stranded: in the seq_cst total order either the sender's step 1
//   precedes the owner's step 3 load (the owner sees the push and reclaims), or the owner's
//   step 2 precedes the sender's step 2 load (the sender sees idle and schedules); if both
//   see each other, the CAS lets exactly one of them schedule the actor.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

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
  enum : std::uint32_t { idle = 0, scheduled = 1 };

  actor_cell(std::uint32_t id, std::unique_ptr<behavior> b, const spawn_options& o, envelope<P>* dummy)
      : actor(id, std::move(b)), mailbox_(dummy), group_(o.group), state_bytes_(o.state_bytes) {
    if (!o.name.empty()) name_ = std::make_unique<std::string>(o.name);
  }

  /// Group of equal actors (donation), 0 if none.
  std::uint32_t group() const { return group_; }
  /// Bytes of state that move with the actor to another core (the simulator charges them).
  std::uint32_t state_bytes() const { return state_bytes_; }

  /// The name given at spawn, or "actor#<id>" (errors and traces).
  std::string name() const { return name_ ? *name_ : "actor#" + std::to_string(id()); }

  /// Send step 2: true if the caller must now hand the actor to the policy.
  bool claim_after_push() {
    return state_.load(std::memory_order_seq_cst) == idle && try_claim();
  }

  /// Release steps 2-3: true if the owner must reschedule the actor after all.
  bool release() {
    const envelope<P>* mark = mailbox_.mark();  // step 1: still the owner
    state_.store(idle, std::memory_order_seq_cst);
    return mailbox_.pushed_since(mark) && try_claim();
  }

  /// Marks an actor scheduled without a message (e.g. handed over between dispatchers).
  bool try_claim() {
    std::uint32_t expected = idle;
    return state_.compare_exchange_strong(expected, scheduled, std::memory_order_seq_cst);
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

  // Hot first: the base class is 40 bytes, so the mailbox's head and tail and the state word
  // share the cell's first cache line with the behavior pointer and, while tracing, the
  // delivery digest written per message (in the second line it cost one more cache-line
  // transfer whenever the actor changed cores: ~4 points of decisions-level overhead on
  // forward); cold fields follow.
 private:
  mailbox<P> mailbox_;
  typename P::template atomic<std::uint32_t> state_{idle};
  typename P::template atomic<std::uint32_t> running_{0};

 public:
  /// Intrusive link for lock-based FIFO run queues (shared-queue); owned by that queue.
  actor_cell* next_runnable = nullptr;

 private:
  std::uint32_t group_, state_bytes_;
  std::unique_ptr<std::string> name_;  // only when given: idle actors stay small
};

}  // namespace twinsched
