// The block codec: a run of one lane's events <-> the compact delta/varint payload described in format.hpp.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "byte_io.hpp"
#include "checksum.hpp"
#include "format.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// What encoding a block also counts: the events by kind and the lane hash's terms.
struct block_tally {
  std::uint64_t hash = 0;  ///< sum of event_hash_term(e, first_index + i)
  std::array<std::uint64_t, 16> kinds{};
};

/// The codec's per-block table of each sender's last seq (format.hpp, [M]): direct-mapped,
/// so the encoder and the decoder agree on every base without a map of all senders.
struct seq_table {
  std::array<std::uint32_t, seq_slots> sender{}, last{};
  /// The base for `s`'s next seq; then records `seq` as its last.
  std::uint32_t swap(std::uint32_t s, std::uint32_t seq) {
    const std::uint32_t i = s & (seq_slots - 1);
    const std::uint32_t base = sender[i] == s ? last[i] : 0;
    sender[i] = s;
    last[i] = seq;
    return base;
  }
};

/// The encoder core over any source of events, in one pass: `at(i)` returns the i-th event
/// (by value: the recorder builds them on the fly from raw chunks, never storing them).
/// Events are one lane's, times non-decreasing; the block's first_time is at(0).time_ns.
template <class At>
void encode_with(std::size_t n, At&& at, std::uint64_t first_index, byte_sink& out, block_tally& tally) {
  if (n == 0) return;
  constexpr std::size_t max_event_bytes = 1 + 10 + 10 + 10 + 10 + 5;
  std::uint64_t time = at(0).time_ns;
  std::uint32_t actor = 0;
  seq_table seqs;
  std::uint8_t* p = out.grow(n * max_event_bytes);
  std::uint64_t hash = tally.hash;
  for (std::size_t i = 0; i < n; ++i) {
    const trace_event e = at(i);
    std::uint8_t head = std::uint8_t(e.kind) & kind_mask;
    const std::int64_t dt = std::int64_t(e.time_ns - time);
    const std::int64_t da = std::int64_t(e.actor) - std::int64_t(actor);
    if (dt != 0) head |= has_time;
    if (da != 0) head |= has_actor;
    if (e.message != 0) head |= has_message;
    if (e.other != 0) head |= has_other;
    *p++ = head;
    if (dt != 0) p = put_varint(p, zigzag(dt));
    if (da != 0) p = put_varint(p, zigzag(da));
    if (e.message != 0) {
      const std::uint32_t sender = std::uint32_t(e.message >> sender_shift);
      const std::uint32_t seq = std::uint32_t(e.message & seq_mask);
      p = put_varint(p, zigzag(std::int64_t(sender) - std::int64_t(e.actor)));
      p = put_varint(p, zigzag(std::int64_t(seq) - std::int64_t(seqs.swap(sender, seq))));
    }
    if (e.other != 0) p = put_varint(p, e.other);
    time = e.time_ns;
    actor = e.actor;
    hash += event_hash_term(e, first_index + i);
    ++tally.kinds[unsigned(e.kind) & 15];
  }
  tally.hash = hash;
  out.commit(p);
}

/// Decodes exactly `count` events of lane `lane` from all of `in` (throws trace_error on any
/// malformed event, a payload that ends early, or bytes left over).
void decode_events(byte_source& in, std::uint32_t count, std::uint64_t first_time_ns, std::uint16_t lane,
                   std::vector<trace_event>& out);

}  // namespace twinsched::traces
