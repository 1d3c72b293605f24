// The event lane's cold paths: allocation, the adaptive stamping interval, and closing a chunk for the next.
#include "event_lane.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <new>
#include <thread>

namespace twinsched::traces {
namespace {

/// The run delay in a schedstat file ("on-cpu-ns run-delay-ns timeslices"), or -1.
std::int64_t read_run_delay(int fd) {
  char b[96];
  const ssize_t n = ::pread(fd, b, sizeof b - 1, 0);
  if (n <= 0) return -1;
  b[n] = '\0';
  char* end = nullptr;
  std::strtoull(b, &end, 10);  // time on a CPU
  if (end == b) return -1;
  const char* second = end;
  const unsigned long long delay = std::strtoull(second, &end, 10);
  return end == second ? -1 : std::int64_t(delay);
}

std::uint32_t saturated(std::uint64_t v) { return std::uint32_t(std::min<std::uint64_t>(v, ~std::uint32_t(0))); }

/// The calling thread's CPU time (a system call: ~2 us on this VM), or -1.
std::int64_t thread_cpu_ns() {
  timespec ts;
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return -1;
  return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// The steady clock, in ns (the vDSO: tens of ns).
std::int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

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

event_lane::thread_life event_lane::thread_started() {
  cpu_read_ = thread_cpu_ns();
  wall_read_ = steady_ns();
  burn_since_read_ = 0;
  thread_life life;
  life.fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  if (life.fd < 0) return life;
  life.delay_start = read_run_delay(life.fd);
  if (life.delay_start < 0) ::close(life.fd), life.fd = -1;
  return life;
}

void event_lane::thread_done(thread_life& life) {
  // Nothing here of the producer's (cpu_read_ and the rest): a thread started on this lane
  // since owns them. The ending thread makes no more events, so no more reads at gaps either.
  if (life.fd < 0) return;
  const std::int64_t now = read_run_delay(life.fd);
  ::close(life.fd);
  life.fd = -1;
  if (now < life.delay_start) return;
  std::int64_t total = run_delay_ns_.load(std::memory_order_relaxed);
  while (!run_delay_ns_.compare_exchange_weak(total, std::max<std::int64_t>(total, 0) + now - life.delay_start,
                                              std::memory_order_relaxed)) {
  }
}

std::uint64_t event_lane::note_off_cpu(const std::uint8_t* at) {
  // off a CPU since the last read: wall time the thread's CPU clock did not count
  // (preempted, or blocked: on a lock whose holder was preempted, say)
  const std::int64_t cpu = thread_cpu_ns(), wall = steady_ns();
  // the stamp again, after the system call; the event's time follows its head, which a held
  // run_end (never stamped: lane_codec.hpp) may precede in the record
  const std::uint64_t t = gap_clock_->now() + gap_clock_->base();
  std::uint32_t head;
  std::memcpy(&head, at, sizeof head);
  if (!(head & lane_codec::stamped)) at += sizeof head;
  std::memcpy(const_cast<std::uint8_t*>(at) + sizeof head, &t, sizeof t);
  if (cpu < 0) return t;
  const std::int64_t off = (wall - wall_read_) - (cpu - cpu_read_);
  cpu_read_ = cpu;
  wall_read_ = wall;
  // the busy loops' gaps since the last read are in it too, and said already
  if (off > 0 && std::uint64_t(off) > burn_since_read_)
    pos_ = lane_codec::write_note(pos_, note_kind::off_cpu, saturated(std::uint64_t(off) - burn_since_read_));
  burn_since_read_ = 0;
  return t;
}

void event_lane::stamped(std::uint64_t t, event_kind k, const std::uint8_t* at) {
  ++stamps_;
  if (t - last_ticks_ > gap_ticks_ && cpu_read_ >= 0) [[unlikely]]
    t = note_off_cpu(at);  // a long stretch, watched (full level): what was the CPU doing?
  if (burned_ != 0 && gap_clock_) {  // watched: what the busy loops ran in the stretch
    pos_ = lane_codec::write_note(pos_, note_kind::burned, burned_);
    burned_ = 0;
  }
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
