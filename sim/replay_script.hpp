// The recorded decisions a replay follows (each worker's turns, read lazily from a trace) and what the replay did with them.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/trace_event.hpp"
#include "traces/lane_cursor.hpp"
#include "traces/trace_reader.hpp"

namespace twinsched {

class sim_platform;

/// What a replay did with the recorded decisions; filled by replay_policy, read after the run.
struct replay_log {
  std::uint64_t recorded = 0;  ///< recorded turns (run_begin events) on the script's lanes
  std::uint64_t followed = 0;  ///< turns that ran the recorded actor on the recorded worker
  std::uint64_t skipped = 0;   ///< recorded turns skipped because they could not apply
  std::uint64_t reordered = 0;  ///< turns started out of the recorded order to resolve a stall
  std::uint64_t free_turns = 0;  ///< turns run after the decisions ran out (under the seed)
  bool exact = false;           ///< message-exact: a turn counts as followed only if its messages matched
  std::uint64_t inexact = 0;    ///< exact mode: turns that ran but could not get their recorded messages
  std::uint64_t passed = 0;     ///< exact mode: empty turns passed on a stall (followed: they consume nothing)
  std::uint64_t adopted = 0;    ///< exact mode: turns message-exact on another worker (theirs never started)
  bool diverged = false;       ///< the policy, left alone, would have decided differently
  bool ran_out = false;        ///< some worker's recorded decisions ended before the run did
  std::vector<std::string> notes;  ///< where it diverged, skipped (the first few), ran out
};

/// One recorded turn: which actor, when it began, how many messages it processed, and at
/// full level which ones.
struct recorded_turn {
  std::uint32_t actor = 0;
  std::uint64_t time_ns = 0;
  std::uint32_t messages = 0;  ///< from run_end's `other`; 0: not recorded (older traces)
  std::uint64_t start = 0;     ///< full: the actor's messages processed before this turn (run_begin)
  std::vector<std::uint64_t> ids;  ///< full: the ids of the messages it consumed, in order
};

/// The recorded decisions: per worker, its turns in order, read from a trace as needed.
class replay_script {
 public:
  replay_script(const traces::trace_reader& r, unsigned workers, sim_platform& plat);
  /// Worker w's next recorded turn, or null when its script is over. Valid until advance(w).
  const recorded_turn* peek(unsigned w);
  /// Consumes worker w's next turn; returns its ordinal in w's script (1-based).
  std::uint64_t advance(unsigned w);
  /// The ordinal the next advance(w) will return.
  std::uint64_t next_ordinal(unsigned w) const { return w < lanes_.size() ? lanes_[w].taken + 1 : 1; }
  sim_platform& plat() { return plat_; }
  /// A full-level trace of a real run: replay is message-exact (replay_policy.hpp).
  bool exact() const { return log_.exact; }
  replay_log& log() { return log_; }

 private:
  struct lane {
    std::unique_ptr<traces::lane_cursor> cursor;  // null: the trace has no lane for this worker
    std::uint64_t taken = 0;
    recorded_turn next;
    bool has_next = false;
  };
  std::vector<lane> lanes_;
  sim_platform& plat_;
  replay_log log_;
};

}  // namespace twinsched
