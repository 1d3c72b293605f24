// The lane codec's decoding side, run by the recorder's writer on each chunk it drains.
#include "lane_codec.hpp"

#include <string>

namespace twinsched::traces {
namespace {

std::uint32_t varint32(byte_source& in) {
  const std::size_t at = in.pos();
  const std::uint64_t v = in.varint();
  if (v > 0xffffffffu) in.fail(at, "lane chunk: a 32-bit field holds " + std::to_string(v));
  return std::uint32_t(v);
}

std::uint32_t unzigzag32(std::uint32_t v) { return (v >> 1) ^ (0u - (v & 1)); }

}  // namespace

void lane_codec::decode(byte_source& in, raw_event& out) {
  const std::uint8_t head = in.u8();
  const unsigned k = head & 15;
  out.word = std::uint64_t(k) << raw_kind_shift;
  if (head & stamped) {
    time_ += std::uint64_t(in.svarint());  // wrapping, as the encoder's difference
    out.word |= (time_ & raw_time_mask) | raw_stamped;
  }
  out.actor = last_[actor_ref(k)].actor;
  if (head & actor_given) out.actor += unzigzag32(varint32(in));
  out.message = last_[message_ref(k)].message;
  if (head & message_given) {
    const std::uint32_t sender = std::uint32_t(out.message >> 32) + unzigzag32(varint32(in));
    const std::uint32_t seq = std::uint32_t(out.message) + unzigzag32(varint32(in));
    out.message = std::uint64_t(sender) << 32 | seq;
  }
  slot& mine = last_[k];
  if (head & other_given) mine.other = varint32(in);
  out.other = mine.other;
  mine.message = out.message;
  mine.actor = out.actor;
}

void decode_lane_chunk(const std::uint8_t* p, std::size_t bytes, std::size_t events, std::vector<raw_event>& out) {
  byte_source in(p, bytes, 0, "(memory)", "lane chunk");
  lane_codec codec;
  out.resize(events);
  for (raw_event& e : out) codec.decode(in, e);
  if (!in.done())
    in.fail(in.pos(), "lane chunk: " + std::to_string(in.left()) + " bytes left after its " + std::to_string(events) +
                          " events");
}

}  // namespace twinsched::traces
