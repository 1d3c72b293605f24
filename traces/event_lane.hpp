// One worker's trace buffer: preallocated chunks filled with no lock and no allocation, handed to the writer when full.
//
// Overview
//   A lane belongs to one producer (a worker thread, or the thread running the workload's
//   start). It owns `chunks` preallocated chunks of `chunk_events` raw 24-byte events, used as
//   a ring. The producer fills the current chunk with plain stores; when it is full, the
//   producer publishes it and moves to the next free one. The recorder's writer thread
//   encodes published chunks into blocks and hands them back. If the writer falls behind
//   so far that no chunk is free, the producer waits (a "stall", counted in the footer):
//   memory stays bounded and no event is dropped.
//
// Sparse clock reads (the real backend)
//   Reading the TSC costs 10-30 ns, as much as a whole message turn of `forward`, so a lane
//   reads its clock ("stamps") only for some events: always for rare, idle-related kinds
//   (worker start/stop, idle, park, unpark, steal, donate, migrate, thread start/retire)
//   and the event after an idle, park or unpark (so idle spells start and end exactly), for
//   the lane's first event and each chunk's last, and otherwise every `k`-th event, where k
//   adapts so that busy stretches get about one clock read per `stamp_interval` (2 us):
//   k = stamp_interval / (time per event measured over the last interval). The writer gives
//   the events between two stamps times interpolated linearly by position. So: times are
//   exact at stamps; in between, while the event rate is steady, the error is below the
//   stamp interval; idle periods always start and end at exact times; the order within a
//   lane is exact. A sudden drop in the event rate (pi: a burst of sends, then
//   millisecond-long jobs) would leave k large for k more events, interpolated between
//   distant stamps; so the recorder's writer thread also advances a shared `tick` word
//   each time it wakes (every 50 us to 1 ms), and a lane that sees the tick change stamps
//   its next event and re-adapts k there. Reading the word costs the hot path one load of
//   a line that changes at most once per wake-up. The simulator passes exact times
//   instead (push_exact).
//
// Protocol (producer P, writer W; `produced` and `consumed` count chunks)
//   P1. write events into chunk produced % chunks
//   P2. when full: produced.store(produced + 1, release)          -- pairs with W1's acquire
//   P3. wait while produced - consumed.load(acquire) == chunks    -- pairs with W3's release
//   W1. while consumed < produced.load(acquire): chunk consumed % chunks is complete
//   W2. encode it (reads only)
//   W3. consumed.store(consumed + 1, release)
//   After the producer has stopped (its thread joined), the recorder reads the partial
//   chunk [begin, pos) directly: the join orders its writes before that read.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>

#include "models/trace_event.hpp"

namespace twinsched::traces {

/// An event as the hot path stores it. `word`: bits 0-55 time (ticks since the clock's base,
/// or ns), bits 56-59 kind, bit 63 set if the time was read (stamped), else to interpolate.
struct raw_event {
  std::uint64_t word;
  std::uint64_t message;
  std::uint32_t actor;
  std::uint32_t other;
};
static_assert(sizeof(raw_event) == 24);

inline constexpr std::uint64_t raw_time_mask = (std::uint64_t(1) << 56) - 1;
inline constexpr std::uint64_t raw_stamped = std::uint64_t(1) << 63;
inline constexpr unsigned raw_kind_shift = 56;

/// Kinds always stamped: rare, and where exact times matter (idle spells, decisions).
inline constexpr std::uint32_t always_stamped =
    1u << unsigned(event_kind::worker_start) | 1u << unsigned(event_kind::worker_stop) |
    1u << unsigned(event_kind::park) | 1u << unsigned(event_kind::unpark) | 1u << unsigned(event_kind::steal) |
    1u << unsigned(event_kind::donate) | 1u << unsigned(event_kind::migrate) |
    1u << unsigned(event_kind::thread_start) | 1u << unsigned(event_kind::thread_retire) |
    1u << unsigned(event_kind::idle);

class alignas(64) event_lane {
 public:
  event_lane() = default;
  event_lane(const event_lane&) = delete;
  event_lane& operator=(const event_lane&) = delete;

  /// Allocates the chunks (untouched memory: pages become resident as they fill).
  /// `tick`: the recorder's coarse tick (advanced by its writer thread); it must outlive the lane.
  void init(std::uint32_t chunk_events, std::uint32_t chunks, std::uint64_t stamp_interval_ticks,
            const std::atomic<std::uint32_t>* tick);

  /// Faults in the memory of the first `events` events (at most the whole ring) now, so
  /// that filling it later writes to resident pages. Best effort: ignored where unsupported.
  void prefault(std::uint64_t events);

  /// Hot path, real backend: `read()` returns ticks since the clock's base; called only
  /// for events that get stamped.
  template <class Read>
  [[gnu::always_inline]] void push_sampled(const trace_event& ev, Read&& read) {
    raw_event* p = pos_;
    std::uint64_t word = std::uint64_t(ev.kind) << raw_kind_shift;
    // relaxed: the tick is a hint to stamp soon, ordered with nothing
    if (p == stamp_at_ || ((always_stamped >> unsigned(ev.kind)) & 1u) ||
        tick_->load(std::memory_order_relaxed) != seen_tick_)
      word |= stamp(p, read(), ev.kind);
    p->word = word;
    p->message = ev.message;
    p->actor = ev.actor;
    p->other = ev.other;
    prefetch_ahead(p);
    if (++pos_ == end_) next_chunk();
  }

  /// Hot path, simulated backend: `ev.time_ns` is exact.
  void push_exact(const trace_event& ev) {
    raw_event* p = pos_;
    p->word = (ev.time_ns & raw_time_mask) | std::uint64_t(ev.kind) << raw_kind_shift | raw_stamped;
    p->message = ev.message;
    p->actor = ev.actor;
    p->other = ev.other;
    ++stamps_;
    if (++pos_ == end_) next_chunk();
  }

  // ---- the writer's side ----

  /// A published chunk not yet handed back, or nullptr (W1).
  const raw_event* ready() const {
    const std::uint64_t mine = consumed_.load(std::memory_order_relaxed);   // only the writer stores it
    if (mine == produced_.load(std::memory_order_acquire)) return nullptr;  // pairs with P2's release
    return chunk(mine);
  }
  /// Hands the ready chunk back (W3).
  void release() {
    // release: pairs with P3's acquire, so the producer reuses the chunk only after our reads
    consumed_.store(consumed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  std::uint32_t chunk_events() const { return chunk_events_; }
  std::uint32_t chunks() const { return chunks_; }
  /// Published chunks not yet handed back.
  std::uint64_t backlog() const {
    // acquire: pairs with P2's release, like ready()
    return produced_.load(std::memory_order_acquire) - consumed_.load(std::memory_order_relaxed);
  }

  /// After the producer stopped: the events of the current, partial chunk.
  const raw_event* partial_begin() const { return begin_; }
  std::size_t partial_size() const { return std::size_t(pos_ - begin_); }

  std::uint64_t stalls() const { return stalls_; }
  std::uint64_t stamps() const { return stamps_; }

 private:
  std::uint64_t stamp(raw_event* p, std::uint64_t t, event_kind k);
  /// Asks for the buffer line ~5 lines ahead in writable state. Without it each new line is a
  /// store miss, and the worker's next seq_cst RMW (a mailbox push) waits for it to drain:
  /// ~20 ns per message on forward. A prefetch never faults, even past the chunk's end.
  static void prefetch_ahead(const raw_event* p) {
#if defined(__x86_64__)
    asm volatile("prefetchw %0" : : "m"(*(reinterpret_cast<const char*>(p) + 320)));  // any x86-64 since 2014
#else
    __builtin_prefetch(reinterpret_cast<const char*>(p) + 320, 1, 3);
#endif
  }
  void next_chunk();  // P2, P3: out of line, once per chunk
  raw_event* chunk(std::uint64_t k) const { return storage_.get() + (k % chunks_) * chunk_events_; }

  // producer-only, hot
  raw_event* pos_ = nullptr;
  raw_event* end_ = nullptr;
  raw_event* stamp_at_ = nullptr;  // next event stamped by count
  raw_event* begin_ = nullptr;
  std::uint64_t chunk_no_ = 0;  // chunks completed (the producer's copy of produced_)
  std::uint32_t every_ = 1;     // k: events per stamp in busy stretches
  std::uint64_t last_ticks_ = 0, last_index_ = 0;
  bool stamped_once_ = false, after_idle_ = false;
  const std::atomic<std::uint32_t>* tick_ = &no_tick_;
  std::uint32_t seen_tick_ = 0;
  static inline const std::atomic<std::uint32_t> no_tick_{0};
  std::uint64_t interval_ticks_ = 1;
  std::uint64_t stalls_ = 0, stamps_ = 0;
  struct unmap {
    std::size_t bytes;
    void operator()(raw_event* p) const;
  };
  std::unique_ptr<raw_event, unmap> storage_{nullptr, unmap{0}};
  std::uint32_t chunk_events_ = 0, chunks_ = 0;
  // shared with the writer, each on its own line
  alignas(64) std::atomic<std::uint64_t> produced_{0};
  alignas(64) std::atomic<std::uint64_t> consumed_{0};
};

}  // namespace twinsched::traces
