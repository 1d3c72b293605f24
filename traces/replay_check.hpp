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

struct delivery_match {
  bool equal = false;         ///< every actor got as many messages, with the same digest, and the checksums agree
  /// False if either footer has no digests (a decisions-level recording) or they come from
  /// different payload hashes (footer.hpp comparable_digests): then `equal` compares the
  /// counts per actor and the runs' checksums (each over every delivered payload).
  bool digests_compared = true;
  std::string digest_note;    ///< why digests were not compared (footer.hpp digest_note)
  std::uint64_t actors = 0;   ///< actors in either run
  std::uint64_t actors_equal = 0;
  std::string first_difference;  ///< when not equal: the first actor (by id) that differs
};

/// Compares every actor's delivery count and payload digest (footer.hpp), and the runs'
/// checksums, between a recording and its replay: equal when the replay delivered the same messages to every actor (in any
/// order; a message-exact replay also has them in the recorded order, turn by turn).
delivery_match compare_deliveries(const trace_footer& recorded, const trace_footer& replayed);

/// Compares the recording with its replay lane by lane. The replay may be recorded at a
/// finer level: its events are filtered to the recording's level and re-numbered, then each
/// lane's event hash (checksum.hpp: every field, times included, and position) is computed
/// and compared with the hash in the recording's footer, and the events are compared one by
/// one to name the first difference. Streams both files: one block per lane in memory.
replay_match compare_replay(const trace_reader& recorded, const trace_reader& replayed);

}  // namespace twinsched::traces
