// The trace file format (.tst): layout, constants and the invariants every writer keeps and every reader checks.
//
// Overview
//   A trace is one run's scheduling history: a header saying what ran (scenario, its hash and
//   canonical text, seed, backend, machine, workers, policy, idle strategy, clock), then
//   checksummed blocks of events, each holding a run of ONE lane's events (a lane is a worker,
//   or the "outside" lane of the workload's start), then a footer with what the run measured
//   (per-worker counters, per-actor delivery counts and digests, per-lane event counts and
//   hashes), then a fixed-size trailer. Everything is little-endian. Blocks of different lanes
//   interleave in the order the recorder finished them; within a lane, blocks are in order and
//   numbered, so a reader can follow one lane, or merge all lanes by time, holding one decoded
//   block per lane: a 100-million-event trace never needs to fit in memory.
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
// actor = 0, and last_seq[sender] = 0 for every sender:
//   byte0   kind (bits 0-3: all 16 values are used; a 17th kind needs a new version)
//           | T (bit 4) | A (bit 5) | M (bit 6) | O (bit 7)
//   [T]     zigzag varint: time - previous time        (absent: same time)
//   [A]     zigzag varint: actor - previous actor      (absent: same actor)
//   [M]     varint sender = message >> 48, then zigzag varint: seq - last_seq[sender], where
//           seq = message & (2^48 - 1); last_seq[sender] = seq   (absent: message 0)
//   [O]     varint other                               (absent: 0)
//   Message ids are (sending worker + 1) << 48 | that worker's sequence (the workload's start
//   uses sender 0), so a message field costs ~2 bytes. Typical events take 3-7 bytes.
//
// Invariants (a reader rejects a file that breaks one, naming the byte offset)
//   1. The header, every block header, every payload and the trailer carry a CRC-32C.
//   2. Within a lane, blocks appear in order with contiguous first_index, and times never
//      decrease (the recorder clamps; simulated time is monotonic per worker).
//   3. A block decodes to exactly `count` events using exactly `length` bytes.
//   4. Exactly one footer, immediately followed by the trailer, which ends the file; the
//      trailer's footer_offset and event_blocks match what precedes it. A file without them
//      was cut short (the recording process died or the copy was truncated).
//
// Event meaning (models/trace_event.hpp's fields, by kind; "worker" is the lane)
//   worker_start/stop, park/unpark, thread_start/retire   worker only
//   idle            worker only: it found no work; the idle spell lasts until its next event
//   send            actor = receiver, message = new id                         (full)
//   schedule        actor made runnable by `worker`, message = the message that made it
//                   runnable (0 if none), other = push_reason (0 sent, 1 yielded, 2 external)
//   run_begin/end   actor's turn on `worker`; run_begin's other = the worker that ran it
//                   before (0xffffffff: never); run_end's other = messages the turn processed
//   message_begin/end   actor, message id                                          (full)
//   steal           worker = thief, actor = what was taken, other = victim worker
//   donate          worker = donor's worker, actor = donating actor, message, other = receiving actor
//   migrate         actor moved to worker `other` by `worker`
//
// What replay reads (twinsched replay; sim/replay_policy.hpp)
//   The header's scenario_text rebuilds the run (scenarios/scenario_loader.hpp loads it) and,
//   for a simulated trace, sim_cores / sim_interleave / sim_quantum_ns / sim_machine_spec
//   / sim_schedule (the preemptions `explore` injected, sim/schedule.hpp) say how it was simulated. Each worker lane, read with lane_cursor, is that worker's
//   sequence of turns: which actor (run_begin) and how many messages (run_end). The replay
//   forces each worker to run those turns; the footer's per-lane event_hash checks that a
//   replayed simulation reproduced the recorded one exactly (traces/replay_check.hpp).
//
// Versioning: bump format_version for any change old readers would misread; add header or
// footer fields only at the end of their payload (old readers skip them).
#pragma once
#include <array>
#include <cstdint>

namespace twinsched::traces {

inline constexpr std::array<std::uint8_t, 8> file_magic{0x89, 'T', 'S', 'T', 0x0d, 0x0a, 0x1a, 0x0a};
inline constexpr std::uint16_t format_version = 1;
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

inline constexpr std::uint64_t seq_mask = (std::uint64_t(1) << 48) - 1;

}  // namespace twinsched::traces
