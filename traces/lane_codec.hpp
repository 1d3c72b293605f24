// The lane codec: how a lane holds events in memory while a run records them (4-12 bytes each on the hot path), and
// how the writer reads them back.
//
// Why
//   In deferred mode (recorder.hpp) the lanes hold every event of the run until it ends: at a
//   fixed 24 bytes per event a 20 M-message forward run at full level held 2.9 GB. Here a
//   turn of one message takes 40 bytes at full level (6 events) and 20 at decisions (3).
//
// Why fixed-width fields and not varints
//   An encoder that compares fields with predictions and writes varints takes ~2-5 ns per
//   event (forward's full-level tracing overhead rose to 36-46%). This one writes whole
//   4- and 8-byte words: each hot kind has one short form, chosen by one or two compares
//   that always go the same way in a given call site, so that, inlined where the worker
//   emits the event with a constant kind, an event is a few shifts and one to three stores,
//   like the 24-byte struct it replaces.
//
// Encoding (little-endian 4-byte units; a chunk decodes on its own: see `reset`)
//   head u32: kind (bits 0-3) | S (bit 4) | L (bit 5) | X (bit 6) | Y (bit 7) | inline (bits 8-31)
//   [S]  u64 time: the event is stamped (its time was read); the writer interpolates the others
//   [L]  long form, any event: u32 actor, u32 other, u64 message
//   Short forms (not L), each used only when its condition holds, else the long form:
//     run_begin(A, n, w)    inline = w + 1 (24 bits; ~0 = "none" -> 0); u32 A; [X] u32 n (X clear: n = 0)
//     message_begin(A, m)   A is the turn's actor, m's sender < 2^24, other 0:
//                           inline = m's sender; u32 m's seq
//     send(B, m)            m's sender is the turn's actor, B < 2^24, other 0: inline = B; u32 m's seq
//     schedule(B, m, 0)     [Y] as the lane's latest send: nothing else
//                           [X] m's sender is the turn's actor, B < 2^24: inline = B; u32 m's seq
//     schedule(A, 0, why)   neither: why < 2^24: inline = why; u32 A
//     message_end(A, m)     A is the turn's actor, m the latest message_begin's, other 0: nothing else
//     run_end(A, 0, n)      A is the turn's actor, n < 2^24: inline = n
//   "The turn's actor" is the latest run_begin's, "m's sender" is m >> 32 and its seq m's low
//   32 bits (message_id, models/envelope.hpp). So a turn of forward (models/worker.hpp)
//   run_begin message_begin send schedule message_end run_end takes 12 + 8 + 8 + 4 + 4 + 4
//   bytes at full level, 8 + 8 + 4 at decisions, plus 8 per stamp (one per ~2 us).
//   Every event takes at most 4 + 8 + 16 = 28 bytes (max_lane_event_bytes).
//
// The on-disk encoding is different (format.hpp, event_codec.hpp): blocks carry exact ns
// times for every event and a table of senders' seqs; the writer decodes a chunk with
// decode_lane_chunk, converts the times and encodes that.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
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
inline event_kind raw_kind(const raw_event& e) { return event_kind((e.word >> raw_kind_shift) & 0xf); }

/// The room one event needs: a head, a time and the long form's fields.
inline constexpr std::size_t max_lane_event_bytes = 28;

class lane_codec {
 public:
  static constexpr std::uint32_t stamped = 1u << 4, long_form = 1u << 5, x_bit = 1u << 6, y_bit = 1u << 7;
  static constexpr unsigned inline_shift = 8;

  /// Forgets what the chunk saw: at the start of each chunk, on both sides.
  void reset() { *this = lane_codec{}; }

  /// Writes `ev` at `p` (room for max_lane_event_bytes needed); `t`: its time if `is_stamped`.
  /// Returns the byte after it.
  [[gnu::always_inline]] std::uint8_t* encode(std::uint8_t* p, const trace_event& ev, bool is_stamped,
                                               std::uint64_t t) {
    std::uint32_t head = std::uint32_t(ev.kind) & 15;
    std::uint8_t* q = p + 4;
    if (is_stamped) {
      head |= stamped;
      put(q, t);
      q += 8;
    }
    const std::uint32_t turn = turn_;  // read before this event updates it
    const std::uint32_t sender = std::uint32_t(ev.message >> 32), seq = std::uint32_t(ev.message);
    switch (ev.kind) {
      case event_kind::run_begin:
        turn_ = ev.actor;
        if (fits(ev.other + 1) && sender == 0) {
          head |= (ev.other + 1) << inline_shift;
          q = put(q, ev.actor);
          if (seq != 0) head |= x_bit, q = put(q, seq);
          return finish(p, head, q);
        }
        break;
      case event_kind::message_begin:
        message_ = ev.message;
        if (ev.actor == turn && fits(sender) && ev.other == 0)
          return finish(p, head | sender << inline_shift, put(q, seq));
        break;
      case event_kind::send:
        send_actor_ = ev.actor;
        send_message_ = ev.message;
        if (sender == turn && fits(ev.actor) && ev.other == 0)
          return finish(p, head | ev.actor << inline_shift, put(q, seq));
        break;
      case event_kind::schedule:
        if (ev.other == 0) {
          if (ev.actor == send_actor_ && ev.message == send_message_) return finish(p, head | y_bit, q);
          if (sender == turn && ev.message != 0 && fits(ev.actor))
            return finish(p, head | x_bit | ev.actor << inline_shift, put(q, seq));
        }
        if (ev.message == 0 && fits(ev.other)) return finish(p, head | ev.other << inline_shift, put(q, ev.actor));
        break;
      case event_kind::message_end:
        if (ev.actor == turn && ev.message == message_ && ev.other == 0) return finish(p, head, q);
        break;
      case event_kind::run_end:
        if (ev.actor == turn && ev.message == 0 && fits(ev.other)) return finish(p, head | ev.other << inline_shift, q);
        break;
      default:
        break;
    }
    q = put(q, ev.actor);
    q = put(q, ev.other);
    q = put(q, ev.message);
    return finish(p, head | long_form, q);
  }

  /// Reads the event at `in`'s position into `out` (throws trace_error on malformed bytes).
  void decode(byte_source& in, raw_event& out);

 private:
  static bool fits(std::uint32_t v) { return v < (1u << 24); }
  template <class T>
  [[gnu::always_inline]] static std::uint8_t* put(std::uint8_t* q, T v) {
    std::memcpy(q, &v, sizeof v);
    return q + sizeof v;
  }
  [[gnu::always_inline]] static std::uint8_t* finish(std::uint8_t* p, std::uint32_t head, std::uint8_t* end) {
    put(p, head);
    return end;
  }

  // what the chunk saw: the turn's actor (latest run_begin), the latest message_begin's
  // message, the latest send's actor and message
  std::uint32_t turn_ = 0, send_actor_ = 0;
  std::uint64_t message_ = 0, send_message_ = 0;
};

/// The writer's side: the `events` events encoded in `bytes` bytes at `p` (one chunk, as
/// encoded from a reset lane_codec), into `out` (resized to `events`). Throws trace_error
/// if the bytes do not hold exactly that many events.
void decode_lane_chunk(const std::uint8_t* p, std::size_t bytes, std::size_t events, std::vector<raw_event>& out);

}  // namespace twinsched::traces
