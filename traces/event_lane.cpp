// The event lane's cold paths: allocation, the adaptive stamping interval, and moving to the next chunk.
#include "event_lane.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <thread>

namespace twinsched::traces {

void event_lane::unmap::operator()(raw_event* p) const { ::munmap(p, bytes); }

void event_lane::init(std::uint32_t chunk_events, std::uint32_t chunks, std::uint64_t stamp_interval_ticks,
                      const std::atomic<std::uint32_t>* tick) {
  if (tick) tick_ = tick;
  chunk_events_ = std::max<std::uint32_t>(chunk_events, 2);
  chunks_ = std::max<std::uint32_t>(chunks, 2);
  // Anonymous memory, untouched until written; huge pages where the kernel allows them, so a
  // large (deferred) ring costs one fault per 2 MiB instead of one per 4 KiB.
  const std::size_t bytes = std::size_t(chunk_events_) * chunks_ * sizeof(raw_event);
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(m, bytes, MADV_HUGEPAGE);
#endif
  storage_ = std::unique_ptr<raw_event, unmap>(static_cast<raw_event*>(m), unmap{bytes});
  begin_ = pos_ = storage_.get();
  end_ = begin_ + chunk_events_;
  stamp_at_ = begin_;  // the lane's first event is stamped
  interval_ticks_ = std::max<std::uint64_t>(stamp_interval_ticks, 1);
}

void event_lane::prefault(std::uint64_t events) {
  const std::size_t ring = std::size_t(chunk_events_) * chunks_;
  const std::size_t bytes = std::size_t(std::min<std::uint64_t>(events, ring)) * sizeof(raw_event);
  if (bytes == 0) return;
#ifdef MADV_POPULATE_WRITE
  if (::madvise(storage_.get(), bytes, MADV_POPULATE_WRITE) == 0) return;
#endif
  // older kernels: touch one byte per page
  auto* c = reinterpret_cast<volatile char*>(storage_.get());
  for (std::size_t off = 0; off < bytes; off += 4096) c[off] = 0;
}

std::uint64_t event_lane::stamp(raw_event* p, std::uint64_t t, event_kind k) {
  ++stamps_;
  const std::uint64_t index = chunk_no_ * chunk_events_ + std::uint64_t(p - begin_);
  // Adapt on stamps due by count, and on those due to the tick when the lane slowed down
  // (the tick's purpose); not on forced ones (park, unpark, ...), which may follow idle time.
  const std::uint32_t tick = tick_->load(std::memory_order_relaxed);
  const bool by_count = p == stamp_at_ && !after_idle_;
  const bool by_tick = tick != seen_tick_ && !after_idle_;
  seen_tick_ = tick;
  // idle, park and unpark also stamp the event after them: an idle spell's end is exact
  after_idle_ = k == event_kind::idle || k == event_kind::park || k == event_kind::unpark;
  if ((by_count || by_tick) && stamped_once_ && index > last_index_ && t > last_ticks_) {
    // Aim for one stamp per interval: k = interval / (ticks per event since the last stamp).
    const std::uint64_t n = index - last_index_;
    const std::uint32_t want = std::uint32_t(std::clamp<std::uint64_t>(interval_ticks_ * n / (t - last_ticks_), 1, 256));
    if (by_count || want < every_) every_ = want;
  }
  stamped_once_ = true;
  last_ticks_ = t;
  last_index_ = index;
  // a chunk always ends with a stamp
  const std::ptrdiff_t ahead = after_idle_ ? 1 : std::ptrdiff_t(every_);
  stamp_at_ = p + std::min(ahead, end_ - 1 - p);
  return (t & raw_time_mask) | raw_stamped;
}

void event_lane::next_chunk() {
  produced_.store(++chunk_no_, std::memory_order_release);                 // P2; pairs with ready()'s acquire
  if (chunk_no_ - consumed_.load(std::memory_order_acquire) >= chunks_) {  // P3; pairs with release()
    ++stalls_;
    // acquire: pairs with release(), as in the check above
    for (unsigned spins = 0; chunk_no_ - consumed_.load(std::memory_order_acquire) >= chunks_; ++spins) {
      if (spins < 64)
        std::this_thread::yield();
      else
        std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }
  begin_ = pos_ = chunk(chunk_no_);
  end_ = begin_ + chunk_events_;
  stamp_at_ = begin_ + std::min<std::ptrdiff_t>(std::ptrdiff_t(every_) - 1, end_ - 1 - begin_);
}

}  // namespace twinsched::traces
