// The lane codec: how a lane holds events in memory while a run records them (typically 1-8 bytes each), and how
// the writer reads them back.
//
// Why
//   In deferred mode (recorder.hpp) the lanes hold every event of the run until it ends: at a
//   fixed 24 bytes per event a 20 M-message forward run at full level held 2.9 GB. Encoded
//   against what the lane just saw, an event takes ~3.3 bytes at full level and ~4.0 at
//   decisions level on forward (twinsched-trace-bench's "memory B/ev").
//
// Cost (open: issue 12 wants decisions <= 10% and full <= 25% overhead on forward)
//   Storing a 24-byte struct costs the hot path almost nothing (~1 cycle per event: the
//   stores retire into the store buffer while the worker waits on its atomics). Encoding
//   costs ~40-60 instructions per event, ~2-5 ns on this 2-core AMD EPYC VM: forward went
//   from ~40 to ~30 M msgs/s at decisions level and ~32 to ~24 M at full (same-session A/B,
//   medians of 5). Varint lengths are computed without a branch (a mispredicted loop per
//   field cost more); a fixed 8-byte slot per event, tried in a microbenchmark, still cost
//   ~1-2 ns per event. What would pay it back is fewer events per message (a turn of one
//   message as one lane record), not a cheaper encoding.
//
// Encoding (one event; all state is per lane and per chunk, so each chunk decodes alone)
//   byte0   kind (bits 0-3) | S (bit 4) | A (bit 5) | M (bit 6) | O (bit 7)
//   [S]     zigzag varint: time - the chunk's previous stamped time (0 before the first):
//           the event is stamped (its time was read); unstamped events get times
//           interpolated by the writer (event_lane.hpp)
//   [A]     zigzag varint (32-bit wrap): actor - predicted actor     (absent: as predicted)
//   [M]     zigzag varint (32-bit wrap): sender - predicted sender, then the same for the
//           low 32 bits (seq), where sender = message >> 32          (absent: as predicted)
//   [O]     varint other                          (absent: the last `other` of this kind)
//   Predictions come from `last`, the fields of the chunk's latest event of each kind (all 0
//   at the chunk's start): the actor is last[actor_ref(kind)].actor, the message
//   last[message_ref(kind)].message. The reference kinds follow what the scheduler emits in
//   a turn (models/worker.hpp): run_begin(A) message_begin(A, m) send(B, m')
//   schedule(B, m') message_end(A, m) run_end(A): schedule repeats its send, message_end its
//   message_begin, and every event of a turn has the run_begin's actor; other kinds predict
//   from their own kind's latest event. A wrong prediction costs bytes, never correctness.
//   An event takes at most 1 + 10 + 5 + 10 + 5 = 31 bytes (plus slack: max_lane_event_bytes).
//
// The on-disk encoding is different (format.hpp, event_codec.hpp): blocks carry exact ns
// times for every event and a table of senders' seqs; the writer decodes a chunk with
// decode_lane_chunk, converts the times and encodes that.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>
#include <vector>

#include "byte_io.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// An event as the writer gets it back from a lane. `word`: bits 0-55 time (ticks since the
/// clock's base, or ns), bits 56-59 kind, bit 63 set if the time was read (stamped), else 0
/// and to interpolate.
struct raw_event {
  std::uint64_t word;
  std::uint64_t message;
  std::uint32_t actor;
  std::uint32_t other;
};

inline constexpr std::uint64_t raw_time_mask = (std::uint64_t(1) << 56) - 1;
inline constexpr std::uint64_t raw_stamped = std::uint64_t(1) << 63;
inline constexpr unsigned raw_kind_shift = 56;

/// The room one event needs: at most 31 bytes encoded, and the last varint's 8-byte store
/// may reach 7 bytes further (lane_codec::put_varint32).
inline constexpr std::size_t max_lane_event_bytes = 40;

/// lane_codec's reference kinds, 4 bits per kind: kind k predicts from the latest event of
/// kind (table >> 4k) & 15.
namespace lane_refs {
constexpr std::uint64_t table(std::initializer_list<std::pair<event_kind, event_kind>> from) {
  std::uint64_t v = 0;
  for (unsigned k = 0; k < 16; ++k) v |= std::uint64_t(k) << (4 * k);  // by default a kind predicts itself
  for (auto [k, r] : from) v = (v & ~(std::uint64_t(15) << (4 * unsigned(k)))) | std::uint64_t(r) << (4 * unsigned(k));
  return v;
}
inline constexpr std::uint64_t actor = table({{event_kind::schedule, event_kind::send},
                                              {event_kind::message_begin, event_kind::run_begin},
                                              {event_kind::message_end, event_kind::run_begin},
                                              {event_kind::run_end, event_kind::run_begin}});
inline constexpr std::uint64_t message =
    table({{event_kind::schedule, event_kind::send}, {event_kind::message_end, event_kind::message_begin}});
}  // namespace lane_refs

class lane_codec {
 public:
  static constexpr std::uint8_t stamped = 0x10, actor_given = 0x20, message_given = 0x40, other_given = 0x80;

  /// Forgets the predictions: at the start of each chunk, on both sides.
  void reset() { *this = lane_codec{}; }

  /// Writes `ev` at `p` (room for max_lane_event_bytes needed); `t`: its time if `is_stamped`.
  /// Returns the byte after it.
  [[gnu::always_inline]] std::uint8_t* encode(std::uint8_t* p, const trace_event& ev, bool is_stamped,
                                               std::uint64_t t) {
    const unsigned k = unsigned(ev.kind) & 15;
    // predictions read and updated before any byte is stored (byte stores may alias them)
    const std::uint32_t da = ev.actor - last_[actor_ref(k)].actor;
    const std::uint64_t pm = last_[message_ref(k)].message;
    slot& mine = last_[k];
    const bool other_changed = ev.other != mine.other;
    mine.message = ev.message;
    mine.actor = ev.actor;
    mine.other = ev.other;
    std::uint8_t head = std::uint8_t(k);
    std::uint8_t* q = p + 1;
    if (is_stamped) {
      head |= stamped;
      const std::uint64_t dt = t - time_;
      time_ = t;
      q = put_varint(q, zigzag(std::int64_t(dt)));
    }
    if (da != 0) {
      head |= actor_given;
      q = put_varint32(q, zigzag32(da));
    }
    if (ev.message != pm) {
      head |= message_given;
      q = put_varint32(q, zigzag32(std::uint32_t(ev.message >> 32) - std::uint32_t(pm >> 32)));
      q = put_varint32(q, zigzag32(std::uint32_t(ev.message) - std::uint32_t(pm)));
    }
    if (other_changed) {
      head |= other_given;
      q = put_varint32(q, ev.other);
    }
    *p = head;
    return q;
  }

  /// A varint of at most 5 bytes at p, without a branch: the length of ids and their deltas
  /// is as random as the ids, and a mispredicted loop per field cost forward ~15 ns per
  /// message. Stores 8 bytes (those past the varint are garbage); returns the byte after it.
  [[gnu::always_inline]] static std::uint8_t* put_varint32(std::uint8_t* p, std::uint32_t v) {
    const std::uint64_t x = v;
    std::uint64_t b = (x & 0x7f) | (x << 1 & 0x7f00) | (x << 2 & 0x7f0000) | (x << 3 & 0x7f000000) |
                      (x << 4 & 0x7f00000000);
    const unsigned n = varint32_bytes[unsigned(__builtin_clz(v | 1))];
    b |= 0x80808080u & ((std::uint64_t(1) << (8 * (n - 1))) - 1);  // continuation bits on all but the last
    std::memcpy(p, &b, sizeof b);
    return p + n;
  }

  /// Reads the event at `in`'s position into `out` (throws trace_error on malformed bytes).
  void decode(byte_source& in, raw_event& out);

  /// Kind whose latest event predicts a `kind` event's actor / message (the header essay).
  static constexpr unsigned actor_ref(unsigned kind) { return unsigned(lane_refs::actor >> (4 * kind)) & 15; }
  static constexpr unsigned message_ref(unsigned kind) { return unsigned(lane_refs::message >> (4 * kind)) & 15; }

 private:
  /// Bytes of a 32-bit varint by the value's leading zero bits.
  static constexpr std::array<std::uint8_t, 32> varint32_bytes = [] {
    std::array<std::uint8_t, 32> n{};
    for (unsigned lz = 0; lz < 32; ++lz) n[lz] = std::uint8_t((32 - lz + 6) / 7);
    return n;
  }();
  static std::uint32_t zigzag32(std::uint32_t v) { return std::uint32_t(v << 1) ^ std::uint32_t(std::int32_t(v) >> 31); }

  struct slot {
    std::uint64_t message = 0;
    std::uint32_t actor = 0, other = 0;
  };
  std::array<slot, 16> last_{};
  std::uint64_t time_ = 0;  // the chunk's latest stamped time
};

/// The writer's side: the `events` events encoded in `bytes` bytes at `p` (one chunk, as
/// encoded from a reset lane_codec), into `out` (resized to `events`). Throws trace_error
/// if the bytes do not hold exactly that many events.
void decode_lane_chunk(const std::uint8_t* p, std::size_t bytes, std::size_t events, std::vector<raw_event>& out);

}  // namespace twinsched::traces
