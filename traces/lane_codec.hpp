// The lane codec: how a lane holds events in memory while a run records them (4-12 bytes each on the hot path), and
// how the writer reads them back.
//
// Why
//   In deferred mode (recorder.hpp) the lanes hold every event of the run until it ends: at a
//   fixed 24 bytes per event a 20 M-message forward run at full level held 2.9 GB. Here a
//   turn of one message takes 40 bytes at full level (6 events) and 16 at decisions (3).
//
// Why fixed-width fields and not varints
//   An encoder that compares fields with predictions and writes varints takes several ns per
//   event, far past the tracing overhead's budget on forward. This one writes whole
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
//     run_begin(A, n, w)    inline = w + 1 (24 bits; ~0 = "none" -> 0); [Y] u32 k; u32 A; [X] u32 n (X clear:
//                           n = 0). Y: the previous turn's run_end, unstamped, with k messages, comes
//                           first, in this record (see "A turn's end" below)
//     message_begin(A, m)   A is the turn's actor, m's sender < 2^24, other 0:
//                           inline = m's sender; u32 m's seq
//     send(B, m)            m's sender is the turn's actor, B < 2^24, other 0: inline = B; u32 m's seq
//     schedule(B, 0, 0)     [X and Y] B < 2^24: inline = B; nothing else (a send's schedule
//                           at decisions level: it names no message, and a send gives no reason)
//     schedule(B, m, 0)     [Y] as the lane's latest send: nothing else
//                           [X] m's sender is the turn's actor, B < 2^24: inline = B; u32 m's seq
//     schedule(A, 0, why)   none of these: why < 2^24: inline = why; u32 A
//     message_end(A, m)     A is the turn's actor, m the latest message_begin's, other 0: nothing else
//     run_end(A, 0, n)      A is the turn's actor, n < 2^24: inline = n
//   "The turn's actor" is the latest run_begin's, "m's sender" is m >> 32 and its seq m's low
//   32 bits (message_id, models/envelope.hpp). So a turn of forward (models/worker.hpp)
//   run_begin message_begin send schedule message_end run_end takes 12 + 8 + 8 + 4 + 4 + 4
//   bytes at full level, 8 + 4 + 4 at decisions, plus 8 per stamp (one per ~2 us).
//   Every event takes at most 4 + 8 + 16 = 28 bytes (max_lane_event_bytes), plus 4 for a
//   held run_end written before it and 8 for each of two notes after it (max_lane_record_bytes).
//
// Notes (not events: what the writer needs to place a real run's times, event_lane.hpp "Time
// off a CPU")
//   head u32 = kind << 8 (worker_start's kind in a short form, which no event has), u32 ns,
//   about the stretch that the stamped event before the note ends, written right after that
//   event's record; the decoder reports it with that event (decode_lane_chunk's `notes`).
//   kind 1, off_cpu: the worker was off a CPU for ns in the stretch (beyond its busy loops'
//   gaps, which message_end's `other` says); kind 2, burned: its busy loops ran for ns in it.
//
// A turn's end
//   A sampled lane holds a run_end that has a short form instead of appending it (hold_end):
//   the lane's next event writes it. If that is a run_begin in short form, the two share one
//   record (Y, above), so the turn's end costs the hot path a compare and a store instead of
//   an event's append; otherwise the held run_end is written, as itself, just before that
//   event. A held run_end is never stamped (its time is interpolated; a stamp it was due
//   goes to the next event), never crosses a chunk (the next event is encoded in the same
//   chunk, before any switch), and the lane writes it when its producer stops (write_held).
//   So a record is at most max_lane_record_bytes.
//
// The on-disk encoding is different (format.hpp, event_codec.hpp): blocks carry exact ns
// times for every event and a table of senders' seqs; the writer decodes a chunk with
// decode_lane_chunk, converts the times and encodes that.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
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
inline event_kind raw_kind(const raw_event& e) { return event_kind((e.word >> raw_kind_shift) & 0xf); }

/// The room one event needs: a head, a time and the long form's fields.
inline constexpr std::size_t max_lane_event_bytes = 28;
/// A note: its head and the ns.
inline constexpr std::size_t lane_note_bytes = 8;
/// The room one record needs: an event, a held run_end before it and two notes after it.
inline constexpr std::size_t max_lane_record_bytes = max_lane_event_bytes + 4 + 2 * lane_note_bytes;

/// What a note says (see "Notes").
enum class note_kind : std::uint8_t { off_cpu = 1, burned = 2 };

/// A note, as decode_lane_chunk reports it: about the stretch that stamped event `index` of
/// the chunk ends.
struct lane_note {
  std::size_t index;
  std::uint32_t ns;
  note_kind kind;
};

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
    std::uint32_t end = held_end_;  // k + 1 of a held run_end, 0: none
    if (end) {
      held_end_ = 0;
      if (ev.kind != event_kind::run_begin || !begin_short(ev)) p = write_end(p, end), end = 0;
    }
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
        if (begin_short(ev)) {
          head |= (ev.other + 1) << inline_shift;
          if (end) {
            head |= y_bit;
            return seq != 0 ? finish(p, head | x_bit, q, end - 1, ev.actor, seq) : finish(p, head, q, end - 1, ev.actor);
          }
          return seq != 0 ? finish(p, head | x_bit, q, ev.actor, seq) : finish(p, head, q, ev.actor);
        }
        break;
      case event_kind::message_begin:
        message_ = ev.message;
        if (ev.actor == turn && fits(sender) && ev.other == 0)
          return finish(p, head | sender << inline_shift, q, seq);
        break;
      case event_kind::send:
        send_actor_ = ev.actor;
        send_message_ = ev.message;
        if (sender == turn && fits(ev.actor) && ev.other == 0)
          return finish(p, head | ev.actor << inline_shift, q, seq);
        break;
      case event_kind::schedule:
        if (ev.other == 0) {
          // first: at decisions level the worker's message is the constant 0 (models/worker.hpp),
          // so this is the whole test there; at full, one compare that fails. Past it, an event
          // whose actor fits names a message, as X's form needs.
          if (ev.message == 0 && fits(ev.actor)) return finish(p, head | x_bit | y_bit | ev.actor << inline_shift, q);
          if (ev.actor == send_actor_ && ev.message == send_message_) return finish(p, head | y_bit, q);
          if (sender == turn && fits(ev.actor))
            return finish(p, head | x_bit | ev.actor << inline_shift, q, seq);
        }
        if (ev.message == 0 && fits(ev.other)) return finish(p, head | ev.other << inline_shift, q, ev.actor);
        break;
      case event_kind::message_end:
        if (ev.actor == turn && ev.message == message_ && ev.other == 0) return finish(p, head, q);
        break;
      case event_kind::run_end:
        if (end_short(ev)) return finish(p, head | ev.other << inline_shift, q);
        break;
      default:
        break;
    }
    return finish(p, head | long_form, q, ev.actor, ev.other, seq, sender);
  }

  /// Writes a note at `p` (see "Notes"); returns the byte after it.
  static std::uint8_t* write_note(std::uint8_t* p, note_kind k, std::uint32_t ns) {
    return put(put(p, std::uint32_t(k) << 8), ns);
  }
  /// Whether a head is a note's.
  static bool is_note(std::uint32_t head) {
    return head == std::uint32_t(note_kind::off_cpu) << 8 || head == std::uint32_t(note_kind::burned) << 8;
  }

  /// A run_end the lane need not write now (see "A turn's end"): true if it is held, in which
  /// case the lane's next event, or write_held, writes it.
  [[gnu::always_inline]] bool hold_end(const trace_event& ev) {
    if (!end_short(ev) || held_end_) return false;
    held_end_ = ev.other + 1;
    return true;
  }
  /// Writes a held run_end at `p`, if any (the producer stopped); returns the byte after.
  std::uint8_t* write_held(std::uint8_t* p) {
    const std::uint32_t end = std::exchange(held_end_, 0);
    return end ? write_end(p, end) : p;
  }

  /// Reads the event at `in`'s position into `out` (throws trace_error on malformed bytes; a
  /// note is not an event: decode_lane_chunk reads those).
  void decode(byte_source& in, raw_event& out);
  /// True between the two events of a run_end + run_begin record.
  bool mid_record() const { return begin_next_; }

 private:
  static bool fits(std::uint32_t v) { return v < (1u << 24); }
  static bool begin_short(const trace_event& ev) { return fits(ev.other + 1) && (ev.message >> 32) == 0; }
  /// run_end's short form: the turn's actor (a run_end does not change it), n < 2^24.
  bool end_short(const trace_event& ev) const { return ev.actor == turn_ && ev.message == 0 && fits(ev.other); }
  /// A run_end of the turn's actor with `end` - 1 messages, short form, unstamped.
  [[gnu::always_inline]] static std::uint8_t* write_end(std::uint8_t* p, std::uint32_t end) {
    return put(p, std::uint32_t(event_kind::run_end) | (end - 1) << inline_shift);
  }
  template <class T>
  [[gnu::always_inline]] static std::uint8_t* put(std::uint8_t* q, T v) {
    std::memcpy(q, &v, sizeof v);
    return q + sizeof v;
  }
  /// Writes the head at `p` and the event's 4-byte fields `v` from `q` on (after the time, if
  /// stamped); returns the byte after them. In 8-byte stores where two words are adjacent (the
  /// head and the first field when unstamped, then fields in pairs): the same bytes in fewer
  /// stores and instructions (bench/trace_instructions.sh counts them).
  template <class... V>
  [[gnu::always_inline]] static std::uint8_t* finish(std::uint8_t* p, std::uint32_t head, std::uint8_t* q, V... v) {
    const std::uint32_t f[sizeof...(V) + 1] = {std::uint32_t(v)...};
    constexpr std::size_t n = sizeof...(V);
    std::size_t i = 0;
    if (n > 0 && q == p + 4) {  // unstamped: q is p + 4, known where encode is inlined
      q = put(p, std::uint64_t(head) | std::uint64_t(f[0]) << 32);
      i = 1;
    } else {
      put(p, head);
    }
    for (; i + 1 < n; i += 2) q = put(q, std::uint64_t(f[i]) | std::uint64_t(f[i + 1]) << 32);
    if (i < n) q = put(q, f[i]);
    return q;
  }

  // what the chunk saw: the turn's actor (latest run_begin), the latest message_begin's
  // message, the latest send's actor and message
  std::uint32_t turn_ = 0, send_actor_ = 0;
  std::uint64_t message_ = 0, send_message_ = 0;
  std::uint32_t held_end_ = 0;  // encoding: k + 1 of a held run_end (0: none)
  // decoding: the run_begin of a record that began with a run_end (Y), returned next
  bool begin_next_ = false;
  raw_event begin_{};
};

/// The writer's side: the events encoded in `bytes` bytes at `p` (one chunk, as encoded
/// from a reset lane_codec), into `out` (resized to their number), and the notes into
/// `notes` (if given; cleared first), each with the index of the stamped event it goes with.
/// Throws trace_error if the bytes end inside an event or hold a head of no known form.
void decode_lane_chunk(const std::uint8_t* p, std::size_t bytes, std::vector<raw_event>& out,
                       std::vector<lane_note>* notes = nullptr);

}  // namespace twinsched::traces
