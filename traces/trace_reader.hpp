// Opens a trace file, checks its structure, and reads its blocks on demand: never the whole file at once.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "footer.hpp"
#include "header.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// Where one block of events lives in the file.
struct block_info {
  std::uint64_t offset = 0;  ///< of the block header
  std::uint16_t lane = 0;
  std::uint32_t count = 0;        ///< events
  std::uint32_t length = 0;       ///< payload bytes
  std::uint64_t first_time = 0;   ///< ns, of its first event
  std::uint64_t first_index = 0;  ///< events of its lane before it
  std::uint32_t payload_crc = 0;
};

/// Opening checks the header (magic, CRC, version), every block header (marker, CRC, lane,
/// bounds, lane continuity), the footer (CRC, decoding) and the trailer, reading only block
/// headers: a few bytes per thousands of events. Payloads are checked (CRC, decoding) when
/// read. Every failure is a trace_error naming the byte offset and what was expected.
/// Thread-safe after construction (positional reads).
class trace_reader {
 public:
  explicit trace_reader(const std::string& path);
  ~trace_reader();
  trace_reader(const trace_reader&) = delete;
  trace_reader& operator=(const trace_reader&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t file_size() const { return size_; }
  const trace_header& header() const { return header_; }
  const trace_footer& footer() const { return footer_; }
  /// Event blocks in file order.
  const std::vector<block_info>& blocks() const { return blocks_; }
  /// Lanes that have events: workers ascending, then the outside lane.
  std::vector<std::uint16_t> lanes() const;
  std::uint64_t events() const { return events_; }

  /// Decodes block `b` into `out` (cleared first); checks its payload checksum.
  void read_block(const block_info& b, std::vector<trace_event>& out) const;
  /// Reads and decodes every block once: true, or throws at the first damaged one.
  void verify() const;
  /// Events decoded by read_block so far, over all passes and threads: a progress line's
  /// "events read" (another thread may read it while blocks are read; it counts whole blocks).
  std::uint64_t events_read() const { return events_read_.load(std::memory_order_relaxed); }

 private:
  void read_at(std::uint64_t offset, void* buf, std::size_t n, const char* what) const;
  void read_header();
  void scan_blocks(std::uint64_t start);

  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  trace_header header_;
  trace_footer footer_;
  std::vector<block_info> blocks_;
  std::uint64_t events_ = 0;
  std::uint64_t body_start_ = 0;
  mutable std::atomic<std::uint64_t> events_read_{0};  // one relaxed add per block (thousands of events)
};

}  // namespace twinsched::traces
