// Walks every lane's events merged by time (ties: lower lane first, then lane order): one block per lane in memory.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "lane_cursor.hpp"

namespace twinsched::traces {

/// The canonical order of a trace's events: by time, then lane, then position in the lane.
/// Deterministic for a given file, so two identical traces walk identically.
class merged_cursor {
 public:
  explicit merged_cursor(const trace_reader& r);
  /// The next event, or nullptr at the end; valid until the next call.
  const trace_event* next();
  /// Events returned so far.
  std::uint64_t position() const { return count_; }

 private:
  void sift_down(std::size_t i);
  bool before(std::size_t a, std::size_t b);

  std::vector<std::unique_ptr<lane_cursor>> lanes_;
  std::vector<std::size_t> heap_;  // indexes into lanes_, by their peeked event
  trace_event current_{};
  std::uint64_t count_ = 0;
};

}  // namespace twinsched::traces
