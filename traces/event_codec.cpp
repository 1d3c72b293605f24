// Encoding and decoding one block of events: kind byte with presence bits, then zigzag/varint deltas.
#include "event_codec.hpp"

#include <string>

#include "format.hpp"

namespace twinsched::traces {

void decode_events(byte_source& in, std::uint32_t count, std::uint64_t first_time_ns, std::uint16_t lane,
                   std::vector<trace_event>& out) {
  std::uint64_t time = first_time_ns;
  std::uint32_t actor = 0;
  seq_table seqs;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::size_t at = in.pos();
    if (in.done())
      in.fail(at, "event " + std::to_string(i) + " of " + std::to_string(count) +
                      ": expected an event, found the end of the payload");
    const std::uint8_t head = in.u8();
    const unsigned kind = head & kind_mask;
    trace_event e;
    e.kind = event_kind(kind);
    e.worker = lane;
    if (head & has_time) {
      const std::int64_t dt = in.svarint();
      if (dt < 0) in.fail(at, "event " + std::to_string(i) + ": time goes backwards by " + std::to_string(-dt) + " ns");
      time += std::uint64_t(dt);
    }
    e.time_ns = time;
    // wrapping (unsigned) addition: a delta near +-2^63 must not overflow a signed sum
    if (head & has_actor) actor = std::uint32_t(std::uint64_t(actor) + std::uint64_t(in.svarint()));
    e.actor = actor;
    if (head & has_message) {
      // wrapping arithmetic, as for the actor: the encoder's deltas are exact within 32 bits
      const std::int64_t ds = in.svarint();
      const std::int64_t sender = std::int64_t(actor) + ds;
      if (ds < -(std::int64_t(1) << 32) || ds > (std::int64_t(1) << 32) || sender < 0 || sender > 0xffffffffLL)
        in.fail(at, "event " + std::to_string(i) + ": message sender " + std::to_string(sender) + " out of range");
      const std::uint32_t s = std::uint32_t(sender);
      const std::uint32_t base = seqs.swap(s, 0);
      const std::uint32_t seq = std::uint32_t(std::uint64_t(base) + std::uint64_t(in.svarint()));
      seqs.swap(s, seq);
      e.message = (std::uint64_t(s) << sender_shift) | seq;
    }
    if (head & has_other) e.other = std::uint32_t(in.varint());
    out.push_back(e);
  }
  if (!in.done())
    in.fail(in.pos(), std::to_string(in.left()) + " bytes left after the block's " + std::to_string(count) + " events");
}

}  // namespace twinsched::traces
