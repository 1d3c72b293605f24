// The trace recorder: per-worker lanes filled on the hot path, a writer thread that turns full chunks into blocks.
//
// Overview
//   One recorder per traced run. Each worker slot has a lane (event_lane.hpp), plus one lane
//   for the events emitted outside any worker (the workload's start). The platform's
//   trace(ev) appends to the calling worker's lane: a few plain stores, a clock read now and
//   then, no lock, no allocation. A background writer thread polls the lanes, decodes each
//   full chunk, converts its times (ticks -> ns, interpolating between stamps), and writes
//   it as one block through trace_writer. finish() stops the writer, flushes every lane's partial chunk and
//   writes the footer (the run's counters, per-actor deliveries, per-lane totals).
//
// When the writer writes (writer_mode)
//   A traced run of `forward` produces ~100 M events per second a worker; held in memory at
//   ~7 bytes each (lane_codec.hpp; 24 before they were encoded) that is ~700 MB per second,
//   and re-encoding them for the file (3-7 bytes each on disk, exact times) takes most of a
//   core. Two ways:
//   - deferred (the default): the rings are large (deferred_budget: 4 GiB or 1/4 of the
//     machine's memory, virtual until touched, faulted in before the run for the events
//     expected), and the writer only drains a lane whose ring is 3/4 full, and everything
//     once the run is over (in finish(), outside the run's measured time). A run that
//     outgrows the rings degrades to concurrent draining; no event is ever dropped.
//   - concurrent: the writer drains chunks as they fill, so memory stays at the lanes' rings
//     (memory_budget, 64 MiB). Not the default even where the writer has a core of its own:
//     one writer converts fewer events per second than one worker of `forward` produces, so
//     the workers wait for it (forward on one worker and a spare core: docs/PERFORMANCE.md).
//     Kept for tests and small-memory hosts.
//
// Invariants
//   1. Each lane has exactly one producer at a time; the platform maps worker i to lane i
//      and outside_worker to the last lane. Lanes must cover every worker slot.
//   2. Only the writer thread (and finish(), after joining it) reads chunks, converts times
//      and writes the file; only finish() writes the footer.
//   3. A lane's times never decrease in the file: interpolation is monotonic between
//      monotonic stamps, and conversion clamps to the lane's previous time.
//   4. No event is dropped: a producer that finds no free chunk waits (a stall, counted).
//
// Protocol of a traced run
//   1. recorder(path, header, clock)   -- writes the header, starts the writer thread
//   2. platform.attach(recorder)       -- from now on trace(ev) lands in lanes
//   3. the run                         -- workers fill lanes; the writer drains full chunks
//   4. finish(run_result)              -- after every producer stopped (threads joined)
#pragma once
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "event_lane.hpp"
#include "header.hpp"
#include "models/run_result.hpp"
#include "tick_clock.hpp"
#include "trace_writer.hpp"

namespace twinsched::traces {

enum class writer_mode : std::uint8_t {
  deferred,    ///< encode when a ring is 3/4 full or the run is over (the default)
  concurrent,  ///< encode chunks as they fill
};

/// What a run's lanes held in memory (event_lane::held_bytes): bytes / events is the
/// in-memory cost per event that deferred mode pays for the whole run.
struct lane_memory {
  std::uint64_t events = 0, bytes = 0;
};

/// Deferred mode: the in-memory bytes per event the prefault provisions for (the lanes hold
/// ~5.5 on forward at decisions level, ~6.8 at full, lane_codec.hpp; up to 28 for events no
/// short form fits).
inline constexpr std::size_t prefault_event_bytes = 8;

struct recorder_options {
  std::size_t chunk_bytes = 16u << 10;    ///< bytes per chunk (one block each: ~2400 events at ~7 bytes)
  std::size_t memory_budget = 64u << 20;  ///< concurrent mode: chunk memory for all lanes together
  std::size_t deferred_budget = 0;        ///< deferred mode: 0 = min(4 GiB, physical memory / 4)
  writer_mode mode = writer_mode::deferred;
  /// Target time between clock reads on sampled lanes. A TSC read costs as much as a short
  /// turn on a virtualized machine; 2 us instead of 1 us cut forward's decisions-level
  /// overhead measurably, at twice the interpolation error.
  /// A traced real run takes it from the environment variable TWINSCHED_TRACE_STAMP_NS if
  /// set (runtime/run_threads.cpp): bench/trace_instructions.sh, which runs under valgrind
  /// ~50x slower, sets it 50x larger so that the run stamps as often per event as a real one.
  std::uint64_t stamp_interval_ns = 2000;
  /// Benchmark aid: chunks go back to the producers unwritten and undecoded, so a run pays
  /// the hot path only. The file then holds the header and footer but no events (and the
  /// footer's per-actor message counts are 0), and memory() counts the bytes but not the
  /// events (only decoding counts them). Decoding them in finish() just to count them slowed
  /// the trace bench's next, untraced run.
  bool discard = false;
  /// Deferred mode: events the run is expected to record (0: unknown). The rings' pages for
  /// about that many (prefault_event_bytes each, up to the budget) are faulted in before the
  /// run, so the run does not pay for zeroing fresh memory as it fills them: for forward's
  /// 20 M messages at decisions level that was most of the tracing overhead. Costs setup time
  /// and that much resident memory.
  std::uint64_t expected_events = 0;
};

class recorder {
 public:
  /// `clock` null: producers pass exact times (push_exact: the simulator). Else producers
  /// stamp with `clock` ticks (push_sampled) and the writer converts. h.lanes worker lanes.
  recorder(const std::string& path, trace_header h, tick_clock* clock, recorder_options o = {});
  ~recorder();
  recorder(const recorder&) = delete;
  recorder& operator=(const recorder&) = delete;

  /// Worker w's lane; outside_worker (or any index past the worker lanes) is the outside lane.
  event_lane& lane(std::uint16_t w) { return lanes_[w < workers_ ? w : workers_]; }
  event_lane* lanes() { return lanes_.get(); }
  unsigned worker_lanes() const { return workers_; }
  tick_clock* clock() const { return clock_; }

  /// Stops the writer, writes the partial chunks and the footer from `r` (its per-actor rows
  /// with the message counts this recorder read from the run_end events: `r`'s are not
  /// counted, models/delivery_tally.hpp). Call once, after every producer has stopped.
  /// Rethrows a write error the writer thread met.
  void finish(const run_result& r);

  std::uint64_t bytes_written() const { return writer_.bytes_written(); }
  std::uint64_t events_written() const { return events_; }
  std::uint64_t stalls() const;
  /// All lanes together; complete after finish() (the writer counts the events as it decodes
  /// the chunks, the last ones in finish; with `discard`, events stay 0).
  lane_memory memory() const;
  const std::string& path() const { return writer_.path(); }

 private:
  struct lane_clock {
    std::uint64_t last_ticks = 0, last_ns = 0;
    std::uint64_t pace = 0;  // ticks per event (32.32) of the last interval without a gap
    std::uint64_t rpace = 0;  // the runtime's ticks per event (32.32) where the busy loops' time is known
    // time off a CPU (event_lane.hpp): whether a handling is under way at the end of what was
    // written, the noted ns charged to it so far, and what the lane's handlings carry in all
    bool handling = false;
    std::uint64_t charged = 0, off_cpu_ns = 0;
  };
  void writer_loop();
  bool drain_ready(bool backlogged_only = false);
  /// A chunk drained from `lane`: unless discarding, decodes it, then converts and writes its
  /// events.
  void take(unsigned lane, const lane_chunk& c);
  void convert_and_write(unsigned lane);  // decoded_, from `lane`
  void count_turn(std::uint32_t actor, std::uint32_t messages) {
    if (actor >= delivered_.size()) delivered_.resize(std::size_t(actor) + 1 + delivered_.size() / 2);
    delivered_[actor] += messages;
  }
  void stop_writer();

  bool discard_;
  bool deferred_;
  unsigned workers_;
  trace_level level_;  // the header's: the footer holds digests at full level only
  std::unique_ptr<event_lane[]> lanes_;  // workers_ + 1: the last is the outside lane
  std::vector<lane_clock> clocks_;
  trace_writer writer_;
  tick_clock* clock_;
  std::vector<raw_event> decoded_;    // a chunk's events, decoded
  std::vector<lane_note> notes_;      // its notes
  std::vector<std::uint64_t> noted_;  // per note, the ns placed at its stamp
  std::vector<std::uint64_t> shift_;  // per event, busy-loop time placed just before it (ticks)
  std::vector<std::uint64_t> ticks_;  // a chunk's times: ticks, then ns
  std::uint64_t events_ = 0;
  // Each actor's processed messages, by id: the sum of its turns' run_end counts, as the
  // writer decodes them. The footer's per-actor counts come from here, not from the workers
  // (models/delivery_tally.hpp: a count per message on the hot path is a store the trace's
  // run_end events already make redundant). Empty with `discard`.
  std::vector<std::uint64_t> delivered_;
  std::atomic<bool> stop_{false};
  std::exception_ptr error_;  // set by the writer thread; it keeps draining (discarding) after
  std::thread thread_;
  bool finished_ = false;
};

}  // namespace twinsched::traces
