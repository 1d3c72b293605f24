// The event lane's cold paths: allocation, the adaptive stamping interval, and closing a chunk for the next.
#include "event_lane.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <thread>

namespace twinsched::traces {

void event_lane::unmap::operator()(std::uint8_t* p) const { ::munmap(p, bytes); }

void event_lane::init(std::size_t chunk_bytes, std::uint32_t chunks, std::uint64_t stamp_interval_ticks) {
  chunk_bytes_ = (std::max(chunk_bytes, min_chunk_bytes) + 63) / 64 * 64;
  chunks_ = std::max<std::uint32_t>(chunks, 2);
  // Anonymous memory, untouched until written; huge pages where the kernel allows them, so a
  // large (deferred) ring costs one fault per 2 MiB instead of one per 4 KiB.
  const std::size_t bytes = chunk_bytes_ * chunks_;
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  ::madvise(m, bytes, MADV_HUGEPAGE);
#endif
  storage_ = std::unique_ptr<std::uint8_t, unmap>(static_cast<std::uint8_t*>(m), unmap{bytes});
  open_chunk(storage_.get());
  interval_ticks_ = std::max<std::uint64_t>(stamp_interval_ticks, 1);
}

void event_lane::prefault(std::size_t bytes) {
  bytes = std::min(bytes, chunk_bytes_ * chunks_);
  if (bytes == 0) return;
#ifdef MADV_POPULATE_WRITE
  if (::madvise(storage_.get(), bytes, MADV_POPULATE_WRITE) == 0) return;
#endif
  // older kernels: touch one byte per page
  auto* c = reinterpret_cast<volatile char*>(storage_.get());
  for (std::size_t off = 0; off < bytes; off += 4096) c[off] = 0;
}

void event_lane::stamped(std::uint64_t t, event_kind k, const std::uint8_t* at) {
  ++stamps_;
  const bool closing = at >= closing_;  // the chunk's last event
  // Adapt on stamps due by position (a chunk's last counts as one), and on those the writer
  // asked for when the lane slowed down (the request's purpose: only lowers k); not on forced
  // ones (park, unpark, ...), which may follow idle time.
  const std::uint64_t bytes = bytes_before(at);  // before this event
  const bool by_position = (at >= stamp_pos_ || closing) && !after_idle_;
  // relaxed, as in push_sampled; null: a request (this thread stores null only before the first stamp)
  const bool requested = check_.load(std::memory_order_relaxed) == nullptr && !after_idle_;
  // idle, park and unpark also stamp the event after them: an idle spell's end is exact
  after_idle_ = k == event_kind::idle || k == event_kind::park || k == event_kind::unpark;
  if ((by_position || requested) && stamped_once_ && bytes > last_bytes_ && t > last_ticks_) {
    // Aim for one stamp per interval: k = interval / (ticks per byte since the last stamp).
    const std::uint64_t n = bytes - last_bytes_;
    const std::uint32_t want = std::uint32_t(std::clamp<std::uint64_t>(interval_ticks_ * n / (t - last_ticks_), 1, 2048));
    if (by_position || want < every_) every_ = want;
  }
  stamped_once_ = true;
  last_ticks_ = t;
  last_bytes_ = bytes;
  if (closing)
    next_chunk();
  else
    set_check();
}

void event_lane::next_chunk() {
  const chunk_head h{std::uint32_t(pos_ - begin_ - sizeof(chunk_head))};
  std::memcpy(begin_, &h, sizeof h);                                       // P1: the head, before P2 publishes it
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
  open_chunk(chunk(chunk_no_));
  set_check();  // the closing event was stamped: the next stamp is due from here
}

void event_lane::open_chunk(std::uint8_t* c) {
  begin_ = c;
  pos_ = begin_ + sizeof(chunk_head);  // the head is written when the chunk closes
  closing_ = begin_ + chunk_bytes_ - 2 * max_lane_record_bytes;
  codec_.reset();  // each chunk decodes on its own
}

}  // namespace twinsched::traces
