// One worker's trace buffer: preallocated chunks filled with no lock and no allocation, handed to the writer when full.
//
// Overview
//   A lane belongs to one producer (a worker thread, or the thread running the workload's
//   start). It owns `chunks` preallocated chunks of `chunk_bytes` bytes, used as a ring. The
//   producer appends events to the current chunk with plain stores, each in 4-12 bytes
//   (more when stamped or unusual), leaving out what the chunk's earlier events imply
//   (lane_codec.hpp); when fewer than two records' worth of bytes (2 x max_lane_record_bytes)
//   are left, the event being pushed is the chunk's last: the producer writes the chunk's
//   head (events, bytes), publishes it and moves to the next free one. The recorder's writer
//   thread decodes published chunks, encodes them into blocks and hands them back. If the
//   writer falls behind so far that no chunk is free, the producer waits (a "stall", counted
//   in the footer): memory stays bounded and no event is dropped.
//
// Chunk layout
//   head: bytes u32 (of the encoded events that follow; written when the chunk closes),
//   then the events, then unused bytes (< 2 x max_lane_record_bytes). What the codec leaves
//   out is implied by earlier events of the same chunk only, so the writer decodes a chunk on
//   its own, and learns how many events it holds by decoding it: the producer does not count
//   them (an add to memory per event, which bench/trace_instructions.sh counts; the recorder
//   counts them as it decodes).
//
// Sparse clock reads (the real backend)
//   Reading the TSC costs as much as a whole message turn of `forward`, so a lane
//   reads its clock ("stamps") only for some events: always for rare, idle-related kinds
//   (worker start/stop, idle, park, unpark, steal, donate, migrate, thread start/retire)
//   and the event after an idle, park or unpark (so idle spells start and end exactly), for
//   the lane's first event and each chunk's last, and otherwise once every `k` bytes of
//   events, where k adapts so that busy stretches get about one clock read per
//   `stamp_interval` (2 us): k = stamp_interval / (time per byte measured over the last
//   interval). So an unstamped event costs one compare of its position with `check_` (the
//   nearer of the next stamp's position and the chunk's closing position). The writer gives
//   the events between two stamps times interpolated linearly by position, except across a
//   gap (an interval far longer than the lane's pace: the user's code of a coarse message),
//   whose excess goes after the interval's message_begin events (recorder.cpp,
//   place_between), so a job is timed from its begin. So: times are
//   exact at stamps; in between, while the event rate is steady, the error is below the
//   stamp interval; idle periods always start and end at exact times; the order within a
//   lane is exact. A sudden drop in the event rate (pi: a burst of sends, then
//   millisecond-long jobs) would leave k large for k more events, interpolated between
//   distant stamps; so the recorder's writer thread also lowers each lane's `check_` each
//   time it wakes (every 50 us to 1 ms; request_stamp), and the lane stamps its next event
//   and re-adapts k there. That costs the hot path nothing (it compares with `check_`
//   anyway) and the lane one line transfer per wake-up. The simulator passes exact times
//   instead (push_exact: every event stamped).
//   `check_` is the one word both threads store (relaxed: a request orders nothing). A
//   request may be overwritten by the producer's own next `check_`, but only by one it stores
//   right after stamping an event, which the request asked for anyway.
//
// Time off a CPU (a real run's worker, full level)
//   A handling's time in the trace is wall time; the analysis wants its CPU time, without what
//   the host took (preemption by other processes). Reading the thread's CPU clock costs a
//   system call (~2 us on this VM: as much as a stamp interval), far too much per event, so
//   two cheaper sources, each where it is exact:
//   - busy loops (thread_platform::burn_ns, the simulator's unit of work) already skip the
//     gaps in their TSC reads (preempted): add_off_cpu passes them to the lane, and the
//     handling's message_end carries their sum as its `other` (a load and a store per
//     message_end; no call on the hot path, which would spill the event's fields);
//   - anywhere else, a stretch between two stamps longer than the gap watched (watch_gaps:
//     50 us, 25 stamp intervals) reads the thread's CPU clock and notes in the lane the wall
//     time it did not count since the last read, less the busy loops' gaps said already: an
//     off-CPU note (lane_codec.hpp) after the stamped event that ends the stretch. That is
//     preemption, and time blocked (on a lock whose holder was preempted: the kernel's run
//     delay misses that). Preemptions last milliseconds, so each makes such a stretch; the
//     cost is one read per stretch (each long idle spell, long job or preemption), never per
//     event, and nothing at decisions level.
//   Neither sees a virtual CPU that the hypervisor deschedules outside a busy loop: the guest's
//   clocks go on as if it ran. The kernel's run delay over each worker's life (schedstat,
//   read at its start and end) says what other threads of this machine took from it.
//   A watched lane also notes, with each stamp, how long its busy loops ran in the stretch
//   (add_burned): the writer (recorder.cpp) then gives the handlings that much, and puts the
//   rest of a slow stretch (the runtime's own: a slab of envelopes, a thread's first steps)
//   between handlings, not into them. It puts the busy loops' gaps just before their
//   message_end, an off-CPU note's time at its stretch's end, and charges a note to the
//   handling under way there, if any, adding it to that handling's message_end `other`.
//
// Protocol (producer P, writer W; `produced` and `consumed` count chunks)
//   P1. encode events into chunk produced % chunks; at its last, write its head
//   P2. produced.store(produced + 1, release)                     -- pairs with W1's acquire
//   P3. wait while produced - consumed.load(acquire) == chunks    -- pairs with W3's release
//   W1. while consumed < produced.load(acquire): chunk consumed % chunks is complete
//   W2. decode it (reads only)
//   W3. consumed.store(consumed + 1, release)
//   After the producer has stopped (its thread joined), the recorder reads the partial
//   chunk (partial(): its head is not written; the lane's position says where it ends)
//   directly: the join orders its writes before that read.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include "lane_codec.hpp"
#include "tick_clock.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// Kinds always stamped: rare, and where exact times matter (idle spells, decisions).
inline constexpr std::uint32_t always_stamped =
    1u << unsigned(event_kind::worker_start) | 1u << unsigned(event_kind::worker_stop) |
    1u << unsigned(event_kind::park) | 1u << unsigned(event_kind::unpark) | 1u << unsigned(event_kind::steal) |
    1u << unsigned(event_kind::donate) | 1u << unsigned(event_kind::migrate) |
    1u << unsigned(event_kind::thread_start) | 1u << unsigned(event_kind::thread_retire) |
    1u << unsigned(event_kind::idle);

/// A chunk's encoded events, as the writer reads them (data null: no chunk).
struct lane_chunk {
  const std::uint8_t* data = nullptr;
  std::size_t bytes = 0;
  explicit operator bool() const { return data != nullptr; }
};

class alignas(64) event_lane {
 public:
  /// A chunk's first bytes: written by the producer when the chunk closes (P1).
  struct chunk_head {
    std::uint32_t bytes;
  };
  /// The smallest chunk: its head and room for two events.
  static constexpr std::size_t min_chunk_bytes = 128;

  event_lane() = default;
  event_lane(const event_lane&) = delete;
  event_lane& operator=(const event_lane&) = delete;

  /// Allocates the chunks (untouched memory: pages become resident as they fill).
  /// `chunk_bytes` is rounded up to a multiple of 64, at least min_chunk_bytes.
  void init(std::size_t chunk_bytes, std::uint32_t chunks, std::uint64_t stamp_interval_ticks);

  /// Faults in the first `bytes` of the ring (at most all of it) now, so that filling it
  /// later writes to resident pages. Best effort: ignored where unsupported.
  void prefault(std::size_t bytes);

  /// Hot path, real backend: `read()` returns ticks since the clock's base; called only
  /// for events that get stamped.
  template <class Read>
  [[gnu::always_inline]] void push_sampled(trace_event ev, Read&& read) {
    if (ev.kind == event_kind::run_end && codec_.hold_end(ev)) return;  // lane_codec.hpp, "A turn's end"
    // what the handling's busy loops lost (add_off_cpu); a load and a store at full level,
    // folded away for the other kinds (no call here: it would spill the event's fields)
    if (ev.kind == event_kind::message_end) {
      ev.other += off_cpu_;  // the worker passes 0
      off_cpu_ = 0;
    }
    // relaxed: only this thread and request_stamp store check_, ordering nothing
    if (((always_stamped >> unsigned(ev.kind)) & 1u) == 0 && pos_ < check_.load(std::memory_order_relaxed)) [[likely]] {
      prefetch_ahead(pos_);
      pos_ = codec_.encode(pos_, ev, false, 0);
      return;
    }
    push_stamped(ev, read());
  }

  /// Hot path, simulated backend: `ev.time_ns` is exact (every event stamped).
  void push_exact(const trace_event& ev) { push_stamped(ev, ev.time_ns); }

  // ---- time off a CPU (a real run's worker; see "Time off a CPU" above) ----

  /// Producer only: the thread was off a CPU for `ns` inside the handling under way (a gap in
  /// a busy loop: thread_platform::burn_ns). The lane's next message_end carries it as its
  /// `other` and is stamped.
  void add_off_cpu(std::uint64_t ns) {
    off_cpu_ = std::uint32_t(std::min<std::uint64_t>(std::uint64_t(off_cpu_) + ns, ~std::uint32_t(0)));
    burn_since_read_ += ns;
  }
  /// Producer only: a busy loop ran for `ns` on a CPU (thread_platform::burn_ns: a handler's
  /// declared work). A watched lane notes it with its next stamp, for the writer to tell a
  /// stretch's handlers' work from the runtime's own slow moments.
  void add_burned(std::uint64_t ns) {
    burned_ = std::uint32_t(std::min<std::uint64_t>(std::uint64_t(burned_) + ns, ~std::uint32_t(0)));
  }
  /// A producing thread's life, kept by that thread: its schedstat handle and its run delay
  /// when it started.
  struct thread_life {
    int fd = -1;
    std::int64_t delay_start = 0;
  };
  /// Called by the thread that produces into this lane from now on, a real run's worker, and
  /// thread_done when it ends: its CPU clock is read now and at watched gaps, and its kernel
  /// run delay (time runnable but not running) now and in thread_done (run_delay).
  /// thread_done writes only `life` and the atomic total, nothing the producer owns: adaptive
  /// starts a new thread on a retired worker's lane while the old thread may still be ending.
  thread_life thread_started();
  void thread_done(thread_life& life);
  /// Full level: at a stamp more than `ticks` after the previous one, read the thread's CPU
  /// clock and note in the lane the wall time it did not count since the last read (less
  /// the busy loops' gaps, said already); `clock` gives the stamp's time again after that.
  void watch_gaps(std::uint64_t ticks, const tick_clock* clock) {
    gap_ticks_ = ticks;
    gap_clock_ = clock;
  }

  /// After the producer stopped, before partial(): writes what the codec still holds (a
  /// turn's end it writes with the next event: lane_codec.hpp).
  void write_held() { pos_ = codec_.write_held(pos_); }

  /// The writer's side: asks the lane to stamp its next event (once per wake-up).
  void request_stamp() { check_.store(nullptr, std::memory_order_relaxed); }

  // ---- the writer's side ----

  /// A published chunk not yet handed back, or none (W1).
  lane_chunk ready() const {
    const std::uint64_t mine = consumed_.load(std::memory_order_relaxed);   // only the writer stores it
    if (mine == produced_.load(std::memory_order_acquire)) return {};       // pairs with P2's release
    const std::uint8_t* c = chunk(mine);
    chunk_head h;
    std::memcpy(&h, c, sizeof h);
    return {c + sizeof h, h.bytes};
  }
  /// Hands the ready chunk back (W3).
  void release() {
    // release: pairs with P3's acquire, so the producer reuses the chunk only after our reads
    consumed_.store(consumed_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
  }
  std::size_t chunk_bytes() const { return chunk_bytes_; }
  std::uint32_t chunks() const { return chunks_; }
  /// Published chunks not yet handed back.
  std::uint64_t backlog() const {
    // acquire: pairs with P2's release, like ready()
    return produced_.load(std::memory_order_acquire) - consumed_.load(std::memory_order_relaxed);
  }

  // ---- after the producer stopped ----

  /// The current, partial chunk's events.
  lane_chunk partial() const { return {begin_ + sizeof(chunk_head), std::size_t(pos_ - begin_) - sizeof(chunk_head)}; }
  /// The ring bytes the events took (whole chunks, heads and unused tails included, plus the
  /// partial chunk's bytes so far): what deferred mode holds in memory.
  std::uint64_t held_bytes() const { return bytes_before(pos_); }
  std::uint64_t stalls() const { return stalls_; }
  std::uint64_t stamps() const { return stamps_; }
  /// The run delay of the threads that produced into the lane, over their lives (between
  /// thread_started and thread_done); -1 if none said (not a real run's worker, no schedstat).
  std::int64_t run_delay() const { return run_delay_ns_.load(std::memory_order_relaxed); }

 private:
  /// An event stamped with time `t`: the chunk's last, one due by position, one of the
  /// always-stamped kinds, the one after an idle spell, or one the writer asked for.
  /// The bookkeeping comes after the encoding, out of line, so that no field of `ev` has to
  /// be kept across a call (spilled on every event's path, stamped or not).
  [[gnu::always_inline]] void push_stamped(const trace_event& ev, std::uint64_t t) {
    std::uint8_t* const at = pos_;
    prefetch_ahead(pos_);
    pos_ = codec_.encode(pos_, ev, true, t);
    stamped(t, ev.kind, at);
  }
  /// After a watched gap ending with the stamped event at `at`: reads the thread's CPU clock,
  /// writes an off-CPU note after the event of the wall time it did not count since the last
  /// read (less the busy loops' gaps, said already), then stamps the event again: the system
  /// call that reads the CPU clock is where a due preemption takes the CPU, and what it took
  /// must lie before the stamp of the stretch whose note says it. Returns the new stamp.
  std::uint64_t note_off_cpu(const std::uint8_t* at);
  /// After a stamped event that started at `at`: adapts k, then the next check or chunk.
  void stamped(std::uint64_t t, event_kind k, const std::uint8_t* at);
  /// Ring bytes taken before position `at` of the current chunk (whole chunks, then this one's).
  std::uint64_t bytes_before(const std::uint8_t* at) const { return chunk_no_ * chunk_bytes_ + std::uint64_t(at - begin_); }
  /// The next position that needs the stamped path: the next stamp's or the closing one.
  void set_check() {
    stamp_pos_ = after_idle_ ? pos_ : pos_ + (every_ - 1);  // k = 1: the next event
    check_.store(stamp_pos_ < closing_ ? stamp_pos_ : closing_, std::memory_order_relaxed);
  }
  /// Asks for the buffer line ~4 lines ahead in writable state. Without it each new line is a
  /// store miss, and the worker's next seq_cst RMW (a mailbox push) waits for it to drain, a
  /// large part of a traced message's time on forward. A prefetch never faults, even past the
  /// chunk's end.
  static void prefetch_ahead(const std::uint8_t* p) {
#if defined(__x86_64__)
    asm volatile("prefetchw %0" : : "m"(*(p + 256)));  // any x86-64 since 2014
#else
    __builtin_prefetch(p + 256, 1, 3);
#endif
  }
  void next_chunk();  // P1's head, P2, P3: out of line, once per chunk
  void open_chunk(std::uint8_t* c);  // starts filling chunk `c` (init, next_chunk)
  std::uint8_t* chunk(std::uint64_t k) const { return storage_.get() + (k % chunks_) * chunk_bytes_; }

  // hot: the producer's; check_ also the writer's (request_stamp)
  std::uint8_t* pos_ = nullptr;
  std::uint32_t off_cpu_ = 0;  // add_off_cpu's ns not yet carried by a message_end (read by each one)
  std::atomic<std::uint8_t*> check_{nullptr};  // from here on, an event is stamped (the first is)
  lane_codec codec_;
  // producer-only, once per stamp or chunk
  std::uint8_t* closing_ = nullptr;    // from here on, an event is its chunk's last
  std::uint8_t* stamp_pos_ = nullptr;  // from here on, one is stamped by position
  std::uint8_t* begin_ = nullptr;      // the current chunk (its head)
  std::uint64_t chunk_no_ = 0;         // chunks completed (the producer's copy of produced_)
  std::uint32_t every_ = 1;            // k: bytes per stamp in busy stretches
  std::uint64_t last_ticks_ = 0, last_bytes_ = 0;
  bool stamped_once_ = false, after_idle_ = false;
  std::uint64_t interval_ticks_ = 1;
  std::uint64_t stalls_ = 0, stamps_ = 0;
  // time off a CPU: producer only (run_delay_ns_: added to by ending threads, read after the join)
  std::uint64_t gap_ticks_ = ~std::uint64_t(0);   // watch_gaps; never: not watched
  const tick_clock* gap_clock_ = nullptr;
  std::uint32_t burned_ = 0;                      // add_burned's ns since the last stamp
  std::uint64_t burn_since_read_ = 0;             // add_off_cpu's ns since the last read
  std::int64_t cpu_read_ = -1, wall_read_ = 0;    // the thread's CPU clock and the steady clock at
                                                  // the last read; -1: no thread_started thread
  std::atomic<std::int64_t> run_delay_ns_{-1};    // over the threads' lives; -1: none said
  struct unmap {
    std::size_t bytes;
    void operator()(std::uint8_t* p) const;
  };
  std::unique_ptr<std::uint8_t, unmap> storage_{nullptr, unmap{0}};
  std::size_t chunk_bytes_ = 0;
  std::uint32_t chunks_ = 0;
  // shared with the writer, each on its own line
  alignas(64) std::atomic<std::uint64_t> produced_{0};
  alignas(64) std::atomic<std::uint64_t> consumed_{0};
};

}  // namespace twinsched::traces
