// The lane codec's decoding side, run by the recorder's writer on each chunk it drains.
#include "lane_codec.hpp"

#include <cstring>
#include <string>

namespace twinsched::traces {

void lane_codec::decode(byte_source& in, raw_event& out) {
  if (begin_next_) {  // the second event of a run_end + run_begin record
    begin_next_ = false;
    out = begin_;
    turn_ = out.actor;
    return;
  }
  const std::size_t at = in.pos();
  const std::uint32_t head = in.u32();
  const auto kind = event_kind(head & 15);
  const std::uint32_t inl = head >> inline_shift;
  out.word = std::uint64_t(head & 15) << raw_kind_shift;
  if (head & stamped) out.word |= (in.u64() & raw_time_mask) | raw_stamped;
  const std::uint32_t turn = turn_;
  auto malformed = [&] { in.fail(at, "lane chunk: event head " + std::to_string(head) + " is no known form"); };
  if (head & long_form) {
    out.actor = in.u32();
    out.other = in.u32();
    out.message = in.u64();
  } else {
    out.actor = turn;
    out.message = 0;
    out.other = 0;
    switch (kind) {
      case event_kind::run_begin:
        out.other = inl - 1;  // wraps 0 back to ~0: "none"
        if (head & y_bit) {  // the previous turn's end first (see "A turn's end"); this run_begin next
          const std::uint32_t k = in.u32();
          begin_ = out;
          begin_.actor = in.u32();
          if (head & x_bit) begin_.message = in.u32();
          begin_next_ = true;
          out = raw_event{std::uint64_t(event_kind::run_end) << raw_kind_shift, 0, turn, k};
          return;
        }
        out.actor = in.u32();
        if (head & x_bit) out.message = in.u32();
        break;
      case event_kind::message_begin: out.message = std::uint64_t(inl) << 32 | in.u32(); break;
      case event_kind::send:
        out.actor = inl;
        out.message = std::uint64_t(turn) << 32 | in.u32();
        break;
      case event_kind::schedule:
        if ((head & (x_bit | y_bit)) == (x_bit | y_bit)) {
          out.actor = inl;
        } else if (head & y_bit) {
          out.actor = send_actor_;
          out.message = send_message_;
        } else if (head & x_bit) {
          out.actor = inl;
          out.message = std::uint64_t(turn) << 32 | in.u32();
        } else {
          out.other = inl;
          out.actor = in.u32();
        }
        break;
      case event_kind::message_end: out.message = message_; break;
      case event_kind::run_end: out.other = inl; break;
      default: malformed();
    }
  }
  // the same updates as encode's, from the decoded fields
  if (kind == event_kind::run_begin) turn_ = out.actor;
  if (kind == event_kind::message_begin) message_ = out.message;
  if (kind == event_kind::send) send_actor_ = out.actor, send_message_ = out.message;
}

void decode_lane_chunk(const std::uint8_t* p, std::size_t bytes, std::vector<raw_event>& out,
                       std::vector<lane_note>* notes) {
  byte_source in(p, bytes, 0, "(memory)", "lane chunk");
  lane_codec codec;
  if (notes) notes->clear();
  // every event takes at least its 4-byte head, and a record of two (run_end + run_begin) 12
  out.resize(bytes / 4);
  std::size_t n = 0, stamped = bytes;  // the last stamped event (bytes: none yet)
  while (!in.done() || codec.mid_record()) {
    std::uint32_t head = 0;
    if (!codec.mid_record() && in.left() >= sizeof head) std::memcpy(&head, p + in.pos(), sizeof head);
    if (lane_codec::is_note(head)) {  // a note: it goes with the stamped event before it
      const std::size_t at = in.pos();
      in.u32();
      const std::uint32_t ns = in.u32();
      if (stamped == bytes) in.fail(at, "lane chunk: a note before any stamped event");
      if (notes) notes->push_back({stamped, ns, note_kind(head >> 8)});
      continue;
    }
    codec.decode(in, out[n]);  // a malformed head throws
    if (out[n].word & raw_stamped) stamped = n;
    ++n;
  }
  out.resize(n);
}

}  // namespace twinsched::traces
