// Envelope pools: a private free list per worker, balanced through a shared depot in batches.
//
// Overview
//   A message costs no heap allocation on the hot path: the sending worker takes an envelope
//   from its own free list and the worker that processes it returns it to *its* own list.
//   When flows are one-sided (a producer worker feeding consumers elsewhere) envelopes pile
//   up on the consumers; a list that grows past 2 x batch gives one batch back to the
//   depot, and a list that runs dry takes one batch (or fresh envelopes) from it. So the
//   depot's lock is taken once per `batch` messages at worst, and memory stays bounded by
//   the number of envelopes in flight plus 2 x batch per worker.
//
// Memory
//   The depot carves batches out of 2 MiB regions it takes from the platform (contract 20:
//   huge pages on real cores). A burst of messages in flight is that much fresh memory, whose
//   first touch faults once per page: per 4 KiB page from the heap, per 2 MiB from a region,
//   and on a VM a fault costs microseconds. Regions go back only when the depot is destroyed.
//
// Invariants
//   - A worker's list is touched only by that worker (no synchronization).
//   - Every envelope belongs to exactly one region, owned by the depot until it is destroyed;
//     its slot is its index in the order carved (region x envelopes per region + index).
#pragma once
#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

#include "envelope.hpp"
#include "platform.hpp"

namespace twinsched {

template <class P>
class envelope_depot {
 public:
  static constexpr std::size_t batch = 256;
  static constexpr std::size_t region_bytes = std::size_t(2) << 20;
  static constexpr std::size_t per_region = region_bytes / sizeof(envelope<P>);
  static_assert(per_region % batch == 0);

  envelope_depot() = default;
  envelope_depot(const envelope_depot&) = delete;
  envelope_depot& operator=(const envelope_depot&) = delete;
  ~envelope_depot() {
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      if constexpr (!std::is_trivially_destructible_v<envelope<P>>) {
        const std::size_t made = r + 1 < regions_.size() ? per_region : carved_;
        for (std::size_t i = 0; i < made; ++i) regions_[r][i].~envelope();
      }
      P::give_pages(regions_[r], region_bytes);
    }
  }

  /// Writes one batch of envelopes to `out` (room for `batch`). Out of line, as give.
  [[gnu::noinline]] void take(envelope<P>** out) {
    lock_guard g(mutex_);
    if (!spare_.empty()) {  // whole batches only: give adds `batch` at a time
      std::copy(spare_.end() - batch, spare_.end(), out);
      spare_.resize(spare_.size() - batch);
      return;
    }
    if (carved_ == per_region) {
      regions_.push_back(static_cast<envelope<P>*>(P::take_pages(region_bytes)));
      carved_ = 0;
    }
    envelope<P>* s = regions_.back() + carved_;
    const std::size_t first = (regions_.size() - 1) * per_region + carved_;
    for (std::size_t i = 0; i < batch; ++i) {
      new (&s[i]) envelope<P>();
      s[i].slot = std::uint32_t(first + i);
      out[i] = &s[i];
    }
    carved_ += batch;
  }

  /// Keeps the `batch` envelopes at `from`. Out of line: once per batch, and inlined it
  /// would keep the pool's put (once per message) from being inlined.
  [[gnu::noinline]] void give(envelope<P>* const* from) {
    lock_guard g(mutex_);
    spare_.insert(spare_.end(), from, from + batch);
  }

 private:
  typename P::mutex mutex_;
  std::vector<envelope<P>*> spare_;  // envelopes given back, a whole number of batches
  std::vector<envelope<P>*> regions_;
  std::size_t carved_ = per_region;  // envelopes made in the last region (none yet: full)
};

template <class P>
class envelope_pool {
 public:
  explicit envelope_pool(envelope_depot<P>& depot) : depot_(depot) {}

  // Once per message each: inlined, with the depot's side out of line. A fixed array, not a
  // std::vector: the vector's push_back, with its growth path, was not inlined (a call per
  // message on the hot path).
  [[gnu::always_inline]] envelope<P>* get() {
    if (n_ == 0) [[unlikely]] {
      depot_.take(free_);
      n_ = batch;
    }
    return free_[--n_];
  }

  [[gnu::always_inline]] void put(envelope<P>* e) {
    free_[n_++] = e;
    if (n_ > 2 * batch) [[unlikely]] {
      n_ -= batch;
      depot_.give(free_ + n_);
    }
  }

 private:
  static constexpr std::size_t batch = envelope_depot<P>::batch;
  envelope_depot<P>& depot_;
  std::size_t n_ = 0;
  envelope<P>* free_[2 * batch + 1];  // the first n_ are free; one put past 2 x batch gives a batch back
};

}  // namespace twinsched
