// The recorded decisions a replay follows (each worker's turns, read lazily from a trace) and what the replay did with them.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
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

/// A scaling decision recorded inside a turn (adaptive's growing and rebalancing rules, from
/// after_message): a migration of `actor` to slot `slot`, or the start of a thread on `slot`.
struct recorded_action {
  enum class kind : std::uint8_t { migrate, start };
  kind what = kind::migrate;
  std::uint32_t after = 0;  ///< made after the turn's `after`-th message
  std::uint32_t actor = 0;  ///< migrate: the actor whose home moved
  std::uint32_t slot = 0;   ///< the target slot, or the slot started
  std::uint32_t rank = 0;   ///< start: the slot's starts before this one in the recording, from any lane
};

/// One step of a worker's recorded script: a turn (which actor, when it began, how many
/// messages it processed, at full level which ones and the scaling decisions made inside
/// it), or, in a message-exact script only, the worker's retirement.
struct recorded_turn {
  std::uint32_t actor = 0;
  std::uint64_t time_ns = 0;
  std::uint32_t messages = 0;  ///< from run_end's `other`; 0: not recorded (older traces)
  std::uint64_t start = 0;     ///< full: the actor's messages processed before this turn (run_begin)
  std::vector<std::uint64_t> ids;  ///< full: the ids of the messages it consumed, in order
  std::vector<recorded_action> actions;  ///< exact: migrations and thread starts, in recorded order
  /// exact: not a turn: the worker's thread retired here, handing its actors to slot `target`
  /// after the migrations in `actions` (thread_retire and the migrate events before it)
  bool retire = false;
  std::uint32_t target = 0;
};

/// The recorded decisions: per worker, its turns in order, read from a trace as needed.
class replay_script {
 public:
  replay_script(const traces::trace_reader& r, unsigned workers, sim_platform& plat);
  /// Worker w's next recorded step, or null when its script is over. Valid until advance(w).
  const recorded_turn* peek(unsigned w);
  /// Consumes worker w's next step; returns its ordinal among w's turns (1-based; a
  /// retirement takes no ordinal).
  std::uint64_t advance(unsigned w);
  /// The ordinal the next advance(w) of a turn will return.
  std::uint64_t next_ordinal(unsigned w) const { return w < lanes_.size() ? lanes_[w].taken + 1 : 1; }
  sim_platform& plat() { return plat_; }
  /// Exact mode: how many recorded turns of no messages each (actor, start) has, over every
  /// lane (a scan of the whole trace when the script is made; replay_receive_order.hpp).
  const std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t>& empty_turns() const { return empty_turns_; }
  /// A full-level trace of a real run: replay is message-exact (replay_policy.hpp).
  bool exact() const { return log_.exact; }
  replay_log& log() { return log_; }

 private:
  struct lane {
    std::unique_ptr<traces::lane_cursor> cursor;  // null: the trace has no lane for this worker
    std::uint64_t taken = 0;
    recorded_turn next;
    bool has_next = false;
    std::vector<std::uint32_t> starts;  // exact: each thread start this lane made, its rank
    std::size_t started = 0;            // of those, read into the script so far
  };
  std::vector<lane> lanes_;
  sim_platform& plat_;
  replay_log log_;
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::uint32_t> empty_turns_;
};

}  // namespace twinsched
