// Envelope pools: a private free list per worker, balanced through a shared depot in batches.
//
// Overview
//   A message costs no heap allocation on the hot path: the sending worker takes an envelope
//   from its own free list and the worker that processes it returns it to *its* own list.
//   When flows are one-sided (a producer worker feeding consumers elsewhere) envelopes pile
//   up on the consumers; a list that grows past 2 x batch gives one batch back to the
//   depot, and a list that runs dry takes one batch (or a fresh slab) from it. So the
//   depot's lock is taken once per `batch` messages at worst, and memory stays bounded by
//   the number of envelopes in flight plus 2 x batch per worker.
//
// Invariants
//   - A worker's list is touched only by that worker (no synchronization).
//   - Every envelope belongs to exactly one slab, owned by the depot until it is destroyed.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "envelope.hpp"
#include "platform.hpp"

namespace twinsched {

template <class P>
class envelope_depot {
 public:
  static constexpr std::size_t batch = 256;

  /// Refill `list` (empty) with one batch. Out of line, as give.
  [[gnu::noinline]] void take(std::vector<envelope<P>*>& list) {
    lock_guard g(mutex_);
    if (!batches_.empty()) {
      list.swap(batches_.back());
      batches_.pop_back();
      return;
    }
    slabs_.push_back(std::make_unique<envelope<P>[]>(batch));
    envelope<P>* s = slabs_.back().get();
    for (std::size_t i = 0; i < batch; ++i) list.push_back(&s[i]);
  }

  /// Move the last `batch` entries of `list` into the depot. Out of line: once per batch,
  /// and inlined it would keep the pool's put (once per message) from being inlined.
  [[gnu::noinline]] void give(std::vector<envelope<P>*>& list) {
    std::vector<envelope<P>*> b(list.end() - batch, list.end());
    list.resize(list.size() - batch);
    lock_guard g(mutex_);
    batches_.push_back(std::move(b));
  }

  std::size_t slabs() const { return slabs_.size(); }

 private:
  typename P::mutex mutex_;
  std::vector<std::vector<envelope<P>*>> batches_;
  std::vector<std::unique_ptr<envelope<P>[]>> slabs_;
};

template <class P>
class envelope_pool {
 public:
  explicit envelope_pool(envelope_depot<P>& depot) : depot_(depot) { free_.reserve(3 * envelope_depot<P>::batch); }

  // Once per message each: inlined, with the depot's side out of line.
  [[gnu::always_inline]] envelope<P>* get() {
    if (free_.empty()) [[unlikely]] depot_.take(free_);
    envelope<P>* e = free_.back();
    free_.pop_back();
    return e;
  }

  [[gnu::always_inline]] void put(envelope<P>* e) {
    free_.push_back(e);
    if (free_.size() > 2 * envelope_depot<P>::batch) [[unlikely]] depot_.give(free_);
  }

 private:
  envelope_depot<P>& depot_;
  std::vector<envelope<P>*> free_;
};

}  // namespace twinsched
