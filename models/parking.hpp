// The idle-worker registry: how a worker goes to sleep and how work wakes it without losing a wake-up.
//
// Overview
//   Each worker has a slot with a `sleeping` flag and the platform's parker (a one-token
//   binary semaphore, platform.hpp contract 3). `count_` counts the raised flags, so
//   a worker that makes work available pays one load when nobody sleeps.
//
// Invariants
//   - count_ >= number of slots whose flag is 1, at every instant: a sleeper increments
//     count_ BEFORE it raises its flag, and whoever lowers a flag decrements count_ only
//     AFTER lowering it. So count_ == 0 proves nobody has a raised flag. (count_ may briefly
//     over-count; that costs a waker one scan of the flags, never a lost wake-up.)
//   - Only the owner raises its flag; whoever lowers it from 1 to 0 (owner cancelling, or a
//     waker claiming it) also decrements count_ and, if a waker, deposits a token.
//
// Protocol
//   sleeper (worker i):  1. count_ += 1; then flag[i] = 1                     (seq_cst RMWs)
//                        2. re-check every place work can appear for i, and `done`
//                        3. if found: cancel (lower own flag if still raised) and run it
//                        4. else parker[i].park() / park_for(t); then cancel as in 3
//   waker:               1. make work visible (queue push, state store)
//                        2. fence(seq_cst); if count_ == 0 stop                (nobody sleeps)
//                        3. pick a slot with flag 1, exchange it to 0; the winner
//                           decrements count_ and unparks that worker
//   `wake_one_hint` skips step 2's fence for work that the waker itself will run if nobody
//   takes it: there a missed sleeper costs parallelism, never progress (see its comment).
//   Why no wake-up is lost: sleeper step 1 and waker step 2 are both seq_cst, so either the
//   waker's loads (count_, then flag[i]) come after both of the sleeper's RMWs and see its
//   flag raised (and wake it, whose park returns because the parker keeps the token even if
//   it was deposited before park), or one of them comes before, which puts the work's
//   publication before the sleeper's step-2 re-check, which then finds it. A stale token
//   (woken while cancelling) only causes one spurious return from a later park, which
//   callers tolerate.
//   Why the order inside step 1 matters (it once hung a CI run): with the flag raised
//   first and count_ incremented second, a waker could claim a sleeper between its two
//   steps and decrement count_ before that sleeper's increment. count_ then under-counted:
//   with worker 1 asleep (count_ 1) and worker 0 between its steps, a waker that claimed 0
//   took count_ to 0, pushed an actor onto worker 1's queue and read count_ == 0, so it
//   woke nobody, while worker 1's re-check had run before the push. The actor stayed in
//   worker 1's queue with every worker parked (sharing, 3 workers, park). Incrementing
//   first makes the under-count impossible (first invariant); tests/models/parking_test.cpp
//   injects a waker at every point of an announce to check it.
#pragma once
#include <cstdint>
#include <memory>

#include "platform.hpp"

namespace twinsched {

template <class P>
class parking {
 public:
  explicit parking(unsigned slots) : n_(slots), slots_(std::make_unique<slot[]>(slots)) {}

  /// Sleeper step 1: count first, flag second (the essay: count_ must never under-count).
  void announce(unsigned i) {
    count_.fetch_add(1, std::memory_order_seq_cst);
    // seq_cst RMW: the step-2 re-check's loads come after it; pairs with the waker's fence
    slots_[i].sleeping.exchange(1, std::memory_order_seq_cst);
  }
  /// Sleeper step 3: lower our own flag unless a waker already did.
  void cancel(unsigned i) {
    if (slots_[i].sleeping.exchange(0, std::memory_order_acq_rel) == 1) count_.fetch_sub(1, std::memory_order_acq_rel);
  }
  void park(unsigned i) { slots_[i].parker.park(); }
  void park_for(unsigned i, std::uint64_t ns) { slots_[i].parker.park_for(ns); }

  /// Waker steps 2-3: wake one sleeping worker, if any. `from` (a worker, or -1) only counts.
  bool wake_one(int from) {
    P::fence(std::memory_order_seq_cst);  // pairs with announce's seq_cst RMW
    if (count_.load(std::memory_order_relaxed) == 0) return false;
    unsigned start = from < 0 ? 0 : unsigned(from) + 1;
    for (unsigned k = 0; k < n_; ++k)
      if (claim((start + k) % n_, from)) return true;
    return false;
  }
  /// Waker steps 2-3 without the fence, for work the waker will run itself if nobody else
  /// does (a push to its own queue, or to a shared queue it pops from). Skipping the fence
  /// may miss a worker that is just announcing: that costs parallelism until the next
  /// push, never progress, because the work is not stranded. A plain load on the hot path.
  bool wake_one_hint(int from) {
    if (count_.load(std::memory_order_relaxed) == 0) return false;
    return wake_one(from);
  }
  /// Wake worker i if it sleeps (targeted policies: distribution, sharing, adaptive).
  bool wake(unsigned i, int from) {
    P::fence(std::memory_order_seq_cst);  // pairs with announce's seq_cst RMW
    return count_.load(std::memory_order_relaxed) != 0 && claim(i, from);
  }
  /// Termination: wake every sleeper. Also deposits tokens for workers about to park.
  void wake_all() {
    P::fence(std::memory_order_seq_cst);
    for (unsigned i = 0; i < n_; ++i) {
      claim(i, -1);
      slots_[i].parker.unpark();
    }
  }
  std::uint64_t wakeups_by(unsigned i) const { return slots_[i].wakeups_by; }
  /// For the hang report: worker i's flag is raised (it announced and nobody claimed it).
  bool flagged(unsigned i) const { return slots_[i].sleeping.load(std::memory_order_relaxed) != 0; }
  /// For the hang report: count_ (>= the raised flags; see the invariants).
  std::uint32_t count() const { return count_.load(std::memory_order_relaxed); }

 private:
  bool claim(unsigned i, int from) {
    if (slots_[i].sleeping.load(std::memory_order_relaxed) == 0) return false;
    if (slots_[i].sleeping.exchange(0, std::memory_order_acq_rel) != 1) return false;
    count_.fetch_sub(1, std::memory_order_acq_rel);
    slots_[i].parker.unpark();
    if (from >= 0) ++slots_[unsigned(from)].wakeups_by;
    return true;
  }

  struct alignas(64) slot {
    typename P::template atomic<std::uint32_t> sleeping{0};
    typename P::parker parker;
    std::uint64_t wakeups_by = 0;  // written only by the worker owning this slot, as a waker
  };
  unsigned n_;
  std::unique_ptr<slot[]> slots_;
  alignas(64) typename P::template atomic<std::uint32_t> count_{0};
};

}  // namespace twinsched
