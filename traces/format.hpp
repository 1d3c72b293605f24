// The trace file format (.tst): layout, constants and the invariants every writer keeps and every reader checks.
//
// Overview
//   A trace is one run's scheduling history: a header saying what ran (scenario, its hash and
//   canonical text, seed, backend, machine, workers, policy, idle strategy, clock), then
//   checksummed blocks of events, each holding a run of ONE lane's events (a lane is a worker,
//   or the "outside" lane of the workload's start), then a footer with what the run measured
//   (per-worker counters, per-actor delivery counts and, at full level, digests, per-lane
//   event counts and hashes), then a fixed-size trailer. Everything is little-endian. Blocks
//   of different lanes interleave in the order the recorder finished them; within a lane,
//   blocks are in order and numbered, so a reader can follow one lane, or merge all lanes by
//   time, holding one decoded block per lane: a 100-million-event trace never needs to fit in
//   memory.
//
// Layout
//   file    := header block* footer trailer
//   header  := magic[8] version:u16 flags:u16 length:u32 payload[length] crc:u32
//              magic = 89 'T' 'S' 'T' 0d 0a 1a 0a (PNG-style: catches text-mode mangling);
//              crc = CRC-32C of every header byte before it. The first 16 bytes and the crc
//              placement are frozen across versions, so any version's header can be checked
//              before its version is interpreted. payload = the trace_header fields in
//              header.hpp's order; a reader ignores trailing fields it does not know.
//   block   := marker "TBLK" type:u8 codec:u8 lane:u16 count:u32 length:u32
//              first_time_ns:u64 first_index:u64 payload_crc:u32 header_crc:u32 payload[length]
//              (40-byte header; header_crc covers its first 36 bytes). type 1 = events,
//              2 = footer (lane 0xffff, count 0). codec 0 = the event encoding below.
//              first_index = the lane's count of events before this block (continuity check).
//   trailer := footer_offset:u64 event_blocks:u64 crc:u32 "TEND"  (24 bytes; crc covers 16)
//
// Event encoding (codec 0), per event, with per-block state starting at time = first_time_ns,
// actor = 0, and a table of `seq_slots` (sender, last seq) pairs, all (0, 0):
//   byte0   kind (bits 0-3: all 16 values are used; a 17th kind needs a new version)
//           | T (bit 4) | A (bit 5) | M (bit 6) | O (bit 7)
//   [T]     zigzag varint: time - previous time        (absent: same time)
//   [A]     zigzag varint: actor - previous actor      (absent: same actor)
//   [M]     zigzag varint: sender - actor, where sender = message >> 32 (the event's actor
//           after [A]); then zigzag varint: seq - base, where seq = message & (2^32 - 1),
//           slot = table[sender mod seq_slots], base = slot's seq if slot's sender is this
//           sender, else 0; then slot = (sender, seq)     (absent: message 0)
//   [O]     varint other                               (absent: 0)
//   Message ids (version 2) are the sending actor's id << 32 | that actor's send count, the
//   count including this message (the workload's start is sender 0 and counts its own
//   sends), so an id names the same message in any run of the same workload, whatever the
//   schedule: a real run and its replay agree on ids. A sender is usually the receiver's
//   neighbor in id and sends to it in order, so a message field costs ~2-4 bytes. Typical
//   events take 3-8 bytes. (Version 1 used the sending *worker* << 48 | the worker's count.)
// Invariants (a reader rejects a file that breaks one, naming the byte offset)
//   1. The header, every block header, every payload and the trailer carry a CRC-32C.
//   2. Within a lane, blocks appear in order with contiguous first_index, and times never
//      decrease (the recorder clamps; simulated time is monotonic per worker).
//   3. A block decodes to exactly `count` events using exactly `length` bytes.
//   4. Exactly one footer, immediately followed by the trailer, which ends the file; the
//      trailer's footer_offset and event_blocks match what precedes it. A file without them
//      was cut short (the recording process died or the copy was truncated).
//
// Times are ns on the trace's clock: simulated time, or a real run's TSC from when its
// recorder was set up, some milliseconds before the run began. The tools show them since the
// trace's first event (footer.hpp run_start_ns), one time zero for every view.
//
// Event meaning (models/trace_event.hpp's fields, by kind; "worker" is the lane)
//   worker_start/stop, park/unpark, thread_start/retire   worker only
//   idle            worker only: it found no work; the idle spell lasts until its next event
//   send            actor = receiver, message = new id                         (full)
//   schedule        actor made runnable by `worker`, message = the message that made it
//                   runnable (0 if none, and at decisions level, which numbers no message an
//                   actor sends), other = push_reason (0 sent, 1 yielded, 2 external)
//   run_begin/end   actor's turn on `worker`; run_begin's other = the worker that ran it
//                   before (0xffffffff: never); run_end's other = messages the turn processed;
//                   at full level run_begin's message = the messages the actor had processed
//                   before this turn (its sender field 0): where the turn starts in the
//                   actor's receive order, so replay orders one actor's turns across workers
//   message_begin/end   actor, message id: with the turn's run_begin, the exact messages
//                   each turn consumed, in order                               (full)
//                   message_end's other (a real run): ns of the handling its worker was
//                   off a CPU: its busy loops' gaps (burn_ns) and what the thread's CPU clock
//                   did not count over a long stretch (event_lane.hpp, "Time off a CPU"); the
//                   recorder puts that time inside the handling, and the analysis
//                   (viz/causality.hpp) leaves it out of the work
//   steal           worker = thief, actor = what was taken, other = victim worker
//   donate          worker = donor's worker, actor = donating actor, message (0 at decisions
//                   level), other = receiving actor
//   migrate         actor moved to worker `other` by `worker`
//
// What replay reads (twinsched replay; sim/replay_policy.hpp)
//   The header's scenario_text rebuilds the run (scenarios/scenario_loader.hpp loads it) and,
//   for a simulated trace, sim_cores / sim_interleave / sim_quantum_ns / sim_machine_spec
//   / sim_schedule (the preemptions `explore` injected, sim/schedule.hpp) say how it was
//   simulated; for a real one host_cores is the recording host's hardware threads. Each
//   worker lane, read with lane_cursor, is that worker's sequence of turns: which actor
//   (run_begin) and how many messages (run_end); at full level also where the turn starts
//   in the actor's receive order (run_begin's message) and which messages it consumed
//   (message_begin ids). The replay forces each worker to run those turns; the footer's
//   per-lane event_hash checks that a replayed simulation reproduced the recorded one exactly
//   (traces/replay_check.hpp), and its per-actor delivery digests (full level) that a replayed
//   real run delivered the same messages to every actor.
//
// What each level guarantees a replay
//   decisions   per worker, the order of its turns (actor and message count): a replay runs
//               each actor on the recorded worker in the recorded order, but which messages
//               a turn consumes is whatever reached the mailbox first under modeled timing,
//               so a real run's turns can only be matched on actor and worker.
//   full        in addition each turn's exact messages and each actor's receive order: a
//               replay of a real run gives every turn exactly the messages it consumed for
//               real (message-exact), so every actor's delivery digest equals the footer's.
//
// Versioning: bump format_version for any change old readers would misread; add header or
// footer fields only at the end of their payload (old readers skip them). Version 2 (message
// ids by sending actor, run_begin's receive position, host_cores) is not readable as 1 and
// this reader refuses version 1 files with an error that says to record them again. Version 3
// changed only the payload hash of the per-actor delivery digests (models/delivery_tally.hpp,
// a cheaper one): the bytes are read as in version 2, and digests are compared only between
// traces of the same version (footer.hpp `digest_format`); a version 2 trace against a
// version 3 one is compared on delivery counts, and says so. Version 4 tallies the digests
// at full level only (models/delivery_tally.hpp says why): the footer's flags byte says
// whether it holds them (bit 3), and a footer without them stores no digest bytes; before
// version 4 every footer with actors held them. Version 4 also numbers messages at full level
// only: a decisions trace's schedule and donate events carry message 0 (older ones, ids).
// Within version 4, the footer gained a trailing section (a real run's time off a CPU per lane:
// the kernel's run delay, and what the lane's handlings left out) and message_end its `other`
// (above): older readers skip the one and never read the other, so they read these traces as
// before (counting a preempted handling's time as work), and a trace without the section says
// it was recorded before either existed (footer.hpp off_cpu_recorded). No version bump: no
// reader misreads a byte.
#pragma once
#include <array>
#include <cstdint>

namespace twinsched::traces {

inline constexpr std::array<std::uint8_t, 8> file_magic{0x89, 'T', 'S', 'T', 0x0d, 0x0a, 0x1a, 0x0a};
inline constexpr std::uint16_t format_version = 4;
/// The version whose payload hash makes today's delivery digests (models/delivery_tally.hpp);
/// a trace of this version or later has comparable digests (footer.hpp `digest_format`).
inline constexpr std::uint16_t digest_hash_version = 3;
inline constexpr std::uint16_t oldest_version = 2;  ///< older files are refused (message ids changed)
inline constexpr std::uint32_t max_header_length = 1u << 20;  ///< 1 MiB: a scenario text, not a data dump
inline constexpr std::uint32_t header_prefix = 16;            ///< magic, version, flags, length

inline constexpr std::array<std::uint8_t, 4> block_marker{'T', 'B', 'L', 'K'};
inline constexpr std::uint32_t block_header_size = 40;
inline constexpr std::uint32_t max_block_length = 64u << 20;  ///< sanity bound on one payload
inline constexpr std::uint32_t max_block_events = 1u << 24;

enum class block_type : std::uint8_t { events = 1, footer = 2 };
enum class block_codec : std::uint8_t { varint = 0 };

inline constexpr std::array<std::uint8_t, 4> trailer_magic{'T', 'E', 'N', 'D'};
inline constexpr std::uint32_t trailer_size = 24;

/// The lane of events emitted outside any worker (the workload's start, the injector).
inline constexpr std::uint16_t outside_lane = 0xffff;

/// Bits of an event's first byte.
inline constexpr std::uint8_t kind_mask = 0x0f;
inline constexpr std::uint8_t has_time = 0x10, has_actor = 0x20, has_message = 0x40, has_other = 0x80;
inline constexpr unsigned kind_count = 16;  ///< event_kind values 0..15: the 4 bits are all used

inline constexpr unsigned sender_shift = 32;  ///< message id = sender actor << 32 | that sender's count
inline constexpr std::uint64_t seq_mask = (std::uint64_t(1) << sender_shift) - 1;
inline constexpr std::uint32_t seq_slots = 1024;  ///< the codec's table of last seqs by sender (a power of 2)

}  // namespace twinsched::traces
