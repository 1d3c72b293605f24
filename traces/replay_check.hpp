// Checking a replay against its recording: per-lane event hashes at the recording's level, and the first event that differs.
#pragma once
#include <cstdint>
#include <string>

#include "trace_reader.hpp"

namespace twinsched::traces {

struct replay_match {
  bool identical = false;    ///< every lane's events and hash equal the recording's
  std::uint64_t events = 0;  ///< recorded events compared
  unsigned lanes = 0, lanes_equal = 0;
  std::string first_difference;  ///< when not identical: the lane, the event number, both events
};

/// Compares the recording with its replay lane by lane. The replay may be recorded at a
/// finer level: its events are filtered to the recording's level and re-numbered, then each
/// lane's event hash (checksum.hpp: every field, times included, and position) is computed
/// and compared with the hash in the recording's footer, and the events are compared one by
/// one to name the first difference. Streams both files: one block per lane in memory.
replay_match compare_replay(const trace_reader& recorded, const trace_reader& replayed);

}  // namespace twinsched::traces
