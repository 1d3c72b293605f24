// The trace file writer: block framing, checksums, lane totals, footer and trailer.
#include "trace_writer.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "checksum.hpp"
#include "event_codec.hpp"
#include "format.hpp"

namespace twinsched::traces {

trace_writer::trace_writer(const std::string& path, const trace_header& h)
    : path_(path), out_(path), f_(out_.c_file()) {
  std::setvbuf(f_, nullptr, _IOFBF, 1 << 20);
  std::vector<std::uint8_t> head = encode_header(h);
  put(head.data(), head.size());
}

void trace_writer::put(const void* p, std::size_t n) {
  if (n && std::fwrite(p, 1, n, f_) != n)
    throw std::runtime_error(path_ + ": cannot write trace file (" + std::strerror(errno) + ")");
  offset_ += n;
}

lane_summary& trace_writer::tally(std::uint16_t lane) {
  auto [it, fresh] = lanes_.try_emplace(lane);
  if (fresh) it->second.lane = lane;
  return it->second;
}

void trace_writer::block(std::uint8_t type, std::uint16_t lane, std::uint32_t count, std::uint64_t first_time,
                         std::uint64_t first_index, const byte_sink& payload) {
  byte_sink h;
  h.raw(block_marker.data(), block_marker.size());
  h.u8(type);
  h.u8(std::uint8_t(block_codec::varint));
  h.u16(lane);
  h.u32(count);
  h.u32(std::uint32_t(payload.size()));
  h.u64(first_time);
  h.u64(first_index);
  h.u32(crc32c(payload.bytes().data(), payload.size()));
  h.u32(crc32c(h.bytes().data(), h.size()));
  put(h.bytes().data(), h.size());
  put(payload.bytes().data(), payload.size());
}

void trace_writer::write_events(std::uint16_t lane, std::span<const trace_event> events) {
  // blocks of at most 64 Ki events: within what readers accept, and small enough to stream
  constexpr std::size_t per_block = 1u << 16;
  static_assert(per_block <= max_block_events && per_block * 39 <= max_block_length);
  while (!events.empty()) {
    const std::span<const trace_event> part = events.first(std::min(events.size(), per_block));
    write_with(lane, part.size(), [&](std::size_t i) { return part[i]; });
    events = events.subspan(part.size());
  }
}

void trace_writer::finish(trace_footer f) {
  f.lanes.clear();
  for (auto& [lane, t] : lanes_) f.lanes.push_back(t);
  const std::uint64_t footer_at = offset_;
  payload_.clear();
  encode_footer(f, payload_);
  block(std::uint8_t(block_type::footer), outside_lane, 0, 0, 0, payload_);
  byte_sink tr;
  tr.u64(footer_at);
  tr.u64(event_blocks_);
  tr.u32(crc32c(tr.bytes().data(), tr.size()));
  tr.raw(trailer_magic.data(), trailer_magic.size());
  put(tr.bytes().data(), tr.size());
  f_ = nullptr;  // commit closes it
  out_.commit();
}

}  // namespace twinsched::traces
