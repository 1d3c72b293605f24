// Encoding and decoding one block of events: kind byte with presence bits, then zigzag/varint deltas.
#include "event_codec.hpp"

#include <string>

#include "format.hpp"

namespace twinsched::traces {
namespace {

/// Per-block delta state shared by the encoder and the decoder.
struct codec_state {
  std::uint64_t time = 0;
  std::uint32_t actor = 0;
  std::vector<std::uint64_t> last_seq;  // by sender (message >> 48)

  std::uint64_t& seq_of(std::uint32_t sender) {
    if (sender >= last_seq.size()) last_seq.resize(std::size_t(sender) + 1, 0);
    return last_seq[sender];
  }
};

}  // namespace

void decode_events(byte_source& in, std::uint32_t count, std::uint64_t first_time_ns, std::uint16_t lane,
                   std::vector<trace_event>& out) {
  codec_state st;
  st.time = first_time_ns;
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
      st.time += std::uint64_t(dt);
    }
    e.time_ns = st.time;
    // wrapping (unsigned) addition: a delta near +-2^63 must not overflow a signed sum
    if (head & has_actor) st.actor = std::uint32_t(std::uint64_t(st.actor) + std::uint64_t(in.svarint()));
    e.actor = st.actor;
    if (head & has_message) {
      const std::uint64_t sender = in.varint();
      if (sender > 0xffff)
        in.fail(at, "event " + std::to_string(i) + ": message sender " + std::to_string(sender) + " out of range");
      std::uint64_t& last = st.seq_of(std::uint32_t(sender));
      last = (last + std::uint64_t(in.svarint())) & seq_mask;
      e.message = (sender << 48) | last;
    }
    if (head & has_other) e.other = std::uint32_t(in.varint());
    out.push_back(e);
  }
  if (!in.done())
    in.fail(in.pos(), std::to_string(in.left()) + " bytes left after the block's " + std::to_string(count) + " events");
}

}  // namespace twinsched::traces
