// Walks one lane's events in order, holding one decoded block in memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "trace_reader.hpp"

namespace twinsched::traces {

class lane_cursor {
 public:
  lane_cursor(const trace_reader& r, std::uint16_t lane);
  /// The next event, or nullptr at the lane's end. The pointer stays valid until the next call.
  const trace_event* next();
  /// The event next() would return, without consuming it.
  const trace_event* peek();
  std::uint16_t lane() const { return lane_; }
  /// Events consumed so far.
  std::uint64_t position() const { return consumed_; }

 private:
  bool fill();

  const trace_reader* r_;
  std::uint16_t lane_;
  std::vector<std::size_t> blocks_;  // indexes into r_->blocks()
  std::size_t next_block_ = 0;
  std::vector<trace_event> buf_;
  std::size_t i_ = 0;
  std::uint64_t consumed_ = 0;
};

}  // namespace twinsched::traces
