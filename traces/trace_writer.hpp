// Writes a trace file: the header, one checksummed block per call, then the footer and trailer.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <span>
#include <string>

#include "byte_io.hpp"
#include "event_codec.hpp"
#include "footer.hpp"
#include "header.hpp"
#include "models/trace_event.hpp"
#include "output_file.hpp"

namespace twinsched::traces {

/// Not thread-safe: one thread writes (the recorder's writer thread, a test, a converter).
/// Keeps every lane's totals and event hash, which finish() puts into the footer.
class trace_writer {
 public:
  /// Writes the header to a temporary file beside `path`, which finish() renames to `path`:
  /// a writer destroyed unfinished (a failed run, an exception) leaves an existing `path` as
  /// it was and no file. Throws files::path_error when the file cannot be created,
  /// std::runtime_error on I/O errors.
  trace_writer(const std::string& path, const trace_header& h);
  trace_writer(const trace_writer&) = delete;
  trace_writer& operator=(const trace_writer&) = delete;

  /// Appends one block with `events` of `lane` (a worker index or outside_lane), which
  /// continue that lane: times never below the lane's previous event.
  void write_events(std::uint16_t lane, std::span<const trace_event> events);

  /// The same for `n` events produced by `at(i)` (event_codec.hpp's encode_with), for a
  /// producer that builds events on the fly. n <= max_block_events.
  template <class At>
  void write_with(std::uint16_t lane, std::size_t n, At&& at) {
    if (n == 0) return;
    lane_summary& t = tally(lane);
    payload_.clear();
    block_tally bt;
    bt.hash = t.event_hash;
    encode_with(n, at, t.events, payload_, bt);
    const std::uint64_t first = at(0).time_ns, last = at(n - 1).time_ns;
    if (t.events == 0) t.first_ns = first;
    block(std::uint8_t(block_type::events), lane, std::uint32_t(n), first, t.events, payload_);
    t.event_hash = bt.hash;
    for (unsigned k = 0; k < 16; ++k) t.by_kind[k] += bt.kinds[k];
    t.events += n;
    t.last_ns = last;
    ++event_blocks_;
  }

  /// The running totals of `lane` (the recorder adds its clock reads and stalls).
  lane_summary& tally(std::uint16_t lane);

  /// Writes `f` (its `lanes` replaced by this writer's tallies) and the trailer, and puts the
  /// file in place.
  void finish(trace_footer f);

  std::uint64_t bytes_written() const { return offset_; }
  const std::string& path() const { return path_; }

 private:
  void put(const void* p, std::size_t n);
  void block(std::uint8_t type, std::uint16_t lane, std::uint32_t count, std::uint64_t first_time,
             std::uint64_t first_index, const byte_sink& payload);

  std::string path_;
  files::output_file out_;
  std::FILE* f_ = nullptr;  ///< out_'s stream
  std::uint64_t offset_ = 0;
  std::uint64_t event_blocks_ = 0;
  std::map<std::uint16_t, lane_summary> lanes_;
  byte_sink payload_;
};

}  // namespace twinsched::traces
