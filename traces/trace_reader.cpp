// The trace reader: structural checks at open, then positional reads of single blocks.
#include "trace_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>

#include "checksum.hpp"
#include "event_codec.hpp"
#include "format.hpp"

namespace twinsched::traces {
namespace {

std::string hex_bytes(const std::uint8_t* p, std::size_t n) {
  std::string s;
  char b[4];
  for (std::size_t i = 0; i < n; ++i) {
    std::snprintf(b, sizeof b, "%s%02x", i ? " " : "", p[i]);
    s += b;
  }
  return s;
}

std::string hex32(std::uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

std::uint64_t le(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}

}  // namespace

trace_reader::trace_reader(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) throw trace_error(path, 0, std::string("cannot open trace file (") + std::strerror(errno) + ")");
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw trace_error(path, 0, std::string("cannot stat trace file (") + std::strerror(err) + ")");
  }
  size_ = std::uint64_t(st.st_size);
  try {
    read_header();
    scan_blocks(body_start_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

trace_reader::~trace_reader() {
  if (fd_ >= 0) ::close(fd_);
}

void trace_reader::read_at(std::uint64_t offset, void* buf, std::size_t n, const char* what) const {
  if (offset + n > size_)
    throw trace_error(path_, offset,
                      std::string("expected ") + what + " of " + std::to_string(n) +
                          " bytes, but the file ends at byte " + std::to_string(size_) + ": truncated");
  auto* p = static_cast<char*>(buf);
  std::size_t done = 0;
  while (done < n) {
    ssize_t k = ::pread(fd_, p + done, n - done, off_t(offset + done));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      throw trace_error(
          path_, offset + done,
          std::string("cannot read ") + what + " (" + (k < 0 ? std::strerror(errno) : "unexpected end") + ")");
    done += std::size_t(k);
  }
}

void trace_reader::read_header() {
  std::uint8_t pre[header_prefix];
  if (size_ < header_prefix + 4)
    throw trace_error(path_, 0,
                      "expected a trace header of at least " + std::to_string(header_prefix + 4) +
                          " bytes, but the file has " + std::to_string(size_) + ": truncated or not a trace");
  read_at(0, pre, header_prefix, "the header");
  if (!std::equal(file_magic.begin(), file_magic.end(), pre))
    throw trace_error(path_, 0,
                      "expected the trace magic " + hex_bytes(file_magic.data(), 8) + ", found " + hex_bytes(pre, 8) +
                          ": not a twinsched trace");
  const std::uint16_t version = std::uint16_t(le(pre + 8, 2));
  const std::uint16_t flags = std::uint16_t(le(pre + 10, 2));
  const std::uint32_t length = std::uint32_t(le(pre + 12, 4));
  if (length > max_header_length)
    throw trace_error(path_, 12,
                      "expected a header length of at most " + std::to_string(max_header_length) + " bytes, found " +
                          std::to_string(length) + ": corrupt header");
  const std::uint64_t crc_at = header_prefix + std::uint64_t(length);
  if (crc_at + 4 > size_)
    throw trace_error(path_, 12,
                      "the header's length (" + std::to_string(length) +
                          " bytes) runs past the end of the file at byte " + std::to_string(size_) + ": truncated");
  std::vector<std::uint8_t> all(std::size_t(crc_at) + 4);
  read_at(0, all.data(), all.size(), "the header");
  const std::uint32_t stored = std::uint32_t(le(all.data() + crc_at, 4));
  const std::uint32_t computed = crc32c(all.data(), std::size_t(crc_at));
  if (stored != computed)
    throw trace_error(path_, crc_at,
                      "header checksum mismatch: expected crc32c " + hex32(computed) + " for bytes 0-" +
                          std::to_string(crc_at - 1) + ", found " + hex32(stored) + ": the header is corrupt");
  if (version > format_version)
    throw trace_error(path_, 8,
                      "format version " + std::to_string(version) +
                          " is newer than this reader, which reads versions " + std::to_string(oldest_version) + "-" +
                          std::to_string(format_version) +
                          ": use a newer twinsched");
  if (version == 0) throw trace_error(path_, 8, "expected a format version >= 1, found 0");
  if (version < oldest_version)
    throw trace_error(path_, 8,
                      "format version " + std::to_string(version) + " is older than this reader, which reads versions " +
                          std::to_string(oldest_version) + "-" + std::to_string(format_version) +
                          " (version 2 names messages by sending actor, so that a replay can match them): record "
                          "the run again with this twinsched");
  if (flags != 0) throw trace_error(path_, 10, "expected header flags 0, found " + std::to_string(flags));
  byte_source in(all.data() + header_prefix, length, header_prefix, path_, "header");
  header_ = decode_header_payload(in, version);
  body_start_ = crc_at + 4;
}

void trace_reader::scan_blocks(std::uint64_t at) {
  std::map<std::uint16_t, std::uint64_t> next_index;  // per lane: events seen so far
  std::map<std::uint16_t, std::uint64_t> last_time;
  for (;;) {
    if (at == size_)
      throw trace_error(path_, at,
                        "expected a block or the footer, but the file ends here (" + std::to_string(size_) +
                            " bytes): the trace was cut short (recording interrupted, or the file truncated)");
    if (size_ - at < block_header_size)
      throw trace_error(path_, at,
                        "expected a " + std::to_string(block_header_size) + "-byte block header, found only " +
                            std::to_string(size_ - at) + " bytes before the end of the file: truncated");
    std::uint8_t h[block_header_size];
    read_at(at, h, sizeof h, "a block header");
    if (!std::equal(block_marker.begin(), block_marker.end(), h))
      throw trace_error(path_, at,
                        "expected the block marker 'TBLK' (" + hex_bytes(block_marker.data(), 4) + "), found " +
                            hex_bytes(h, 4) + ": corrupt, or not at a block boundary");
    const std::uint32_t stored = std::uint32_t(le(h + 36, 4));
    const std::uint32_t computed = crc32c(h, 36);
    if (stored != computed)
      throw trace_error(path_, at,
                        "block header checksum mismatch: expected crc32c " + hex32(computed) + ", found " +
                            hex32(stored) + ": the block header is corrupt");
    block_info b;
    b.offset = at;
    const std::uint8_t type = h[4], codec = h[5];
    b.lane = std::uint16_t(le(h + 6, 2));
    b.count = std::uint32_t(le(h + 8, 4));
    b.length = std::uint32_t(le(h + 12, 4));
    b.first_time = le(h + 16, 8);
    b.first_index = le(h + 24, 8);
    b.payload_crc = std::uint32_t(le(h + 32, 4));
    if (type != std::uint8_t(block_type::events) && type != std::uint8_t(block_type::footer))
      throw trace_error(path_, at + 4, "expected block type 1 (events) or 2 (footer), found " + std::to_string(type));
    if (codec != std::uint8_t(block_codec::varint))
      throw trace_error(path_, at + 5, "expected block codec 0 (varint), found " + std::to_string(codec));
    if (b.length > max_block_length || b.count > max_block_events)
      throw trace_error(
          path_, at + 8,
          "implausible block: " + std::to_string(b.count) + " events in " + std::to_string(b.length) + " bytes");
    const std::uint64_t end = at + block_header_size + b.length;
    if (end > size_)
      throw trace_error(path_, at + 12,
                        "the block's payload of " + std::to_string(b.length) +
                            " bytes runs past the end of the file at byte " + std::to_string(size_) + ": truncated");
    if (type == std::uint8_t(block_type::footer)) {
      std::vector<std::uint8_t> payload(b.length);
      read_at(at + block_header_size, payload.data(), payload.size(), "the footer");
      const std::uint32_t c = crc32c(payload.data(), payload.size());
      if (c != b.payload_crc)
        throw trace_error(path_, at,
                          "footer checksum mismatch: expected crc32c " + hex32(c) + ", found " + hex32(b.payload_crc) +
                              ": the footer is corrupt");
      byte_source in(payload.data(), payload.size(), at + block_header_size, path_, "footer");
      footer_ = decode_footer(in, header_.version);
      // the trailer must follow and end the file
      if (size_ - end != trailer_size)
        throw trace_error(path_, end,
                          "expected the " + std::to_string(trailer_size) + "-byte trailer after the footer, found " +
                              std::to_string(size_ - end) + " bytes" +
                              (size_ - end < trailer_size ? ": truncated" : ""));
      std::uint8_t t[trailer_size];
      read_at(end, t, sizeof t, "the trailer");
      if (!std::equal(trailer_magic.begin(), trailer_magic.end(), t + 20) ||
          std::uint32_t(le(t + 16, 4)) != crc32c(t, 16))
        throw trace_error(path_, end,
                          "expected a trailer ending in 'TEND' with a valid checksum: the trailer is corrupt");
      if (le(t, 8) != at || le(t + 8, 8) != blocks_.size())
        throw trace_error(path_, end,
                          "the trailer names the footer at byte " + std::to_string(le(t, 8)) + " after " +
                              std::to_string(le(t + 8, 8)) + " event blocks; found it at byte " + std::to_string(at) +
                              " after " + std::to_string(blocks_.size()));
      return;
    }
    if (b.lane != outside_lane && b.lane >= header_.lanes)
      throw trace_error(path_, at + 6,
                        "expected a lane below " + std::to_string(header_.lanes) + " or 65535 (outside), found " +
                            std::to_string(b.lane));
    if (b.count == 0) throw trace_error(path_, at + 8, "expected a block with at least one event, found 0");
    std::uint64_t& expect = next_index[b.lane];
    if (b.first_index != expect)
      throw trace_error(path_, at + 24,
                        "lane " + std::to_string(b.lane) + "'s block starts at its event " +
                            std::to_string(b.first_index) + ", expected " + std::to_string(expect) +
                            ": a block is missing or out of order");
    auto [lt, fresh] = last_time.try_emplace(b.lane, b.first_time);
    if (!fresh && b.first_time < lt->second)
      throw trace_error(path_, at + 16,
                        "lane " + std::to_string(b.lane) + "'s block starts at " + std::to_string(b.first_time) +
                            " ns, before its previous block (" + std::to_string(lt->second) + " ns)");
    lt->second = b.first_time;
    expect += b.count;
    events_ += b.count;
    blocks_.push_back(b);
    at = end;
  }
}

std::vector<std::uint16_t> trace_reader::lanes() const {
  std::vector<std::uint16_t> v;
  for (const auto& b : blocks_)
    if (std::find(v.begin(), v.end(), b.lane) == v.end()) v.push_back(b.lane);
  std::sort(v.begin(), v.end());  // outside_lane (0xffff) sorts last
  return v;
}

void trace_reader::read_block(const block_info& b, std::vector<trace_event>& out) const {
  std::vector<std::uint8_t> payload(b.length);
  read_at(b.offset + block_header_size, payload.data(), payload.size(), "a block payload");
  const std::uint32_t c = crc32c(payload.data(), payload.size());
  if (c != b.payload_crc)
    throw trace_error(path_, b.offset,
                      "block payload checksum mismatch (lane " + std::to_string(b.lane) + ", bytes " +
                          std::to_string(b.offset + block_header_size) + "-" +
                          std::to_string(b.offset + block_header_size + b.length - 1) + "): expected crc32c " +
                          hex32(b.payload_crc) + ", computed " + hex32(c) + ": the events are corrupt");
  out.clear();
  out.reserve(b.count);
  byte_source in(payload.data(), payload.size(), b.offset + block_header_size, path_,
                 "block of lane " + std::to_string(b.lane));
  decode_events(in, b.count, b.first_time, b.lane, out);
  events_read_.fetch_add(b.count, std::memory_order_relaxed);
}

void trace_reader::verify() const {
  std::vector<trace_event> buf;
  for (const auto& b : blocks_) read_block(b, buf);
}

}  // namespace twinsched::traces
