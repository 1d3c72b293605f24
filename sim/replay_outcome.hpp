// Replaying a trace in the simulator: the options that simulate the recorded run again, what
// the replay came to against its recording, and that outcome as text or as JSON.
#pragma once
#include <cstdint>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_sim.hpp"
#include "traces/header.hpp"
#include "traces/replay_check.hpp"

namespace twinsched {

/// "in.tst" -> "in.replay.tst": where a replay's trace goes unless told otherwise.
std::string replay_trace_path(const std::string& recorded);

/// How to simulate a recorded run again: as recorded for a simulated trace; for a real one,
/// the scenario's machine with as many cores as the recording host had (at least the
/// workers). A non-empty `machine` or non-zero `cores` overrides either.
sim_options replay_options(const traces::trace_header& h, const scenario& s, const std::string& machine,
                           std::uint32_t cores);

/// A replay and how it compares with its recording.
struct replay_outcome {
  std::string recorded, replayed;  ///< the two traces' paths
  std::string backend;             ///< the recording's: "sim" or "threads"
  sim_result r;                    ///< the replay's simulation (r.replay: what happened to the decisions)
  /// A simulated trace replayed on its own machine and cores: compared event for event (`match`).
  bool as_recorded = false;
  traces::replay_match match;
  traces::delivery_match deliveries;  ///< every actor's messages against the recording's footer

  /// The run's verdict is OK, it is identical to the recording when as_recorded, and a
  /// message-exact replay followed every recorded turn and delivered equal digests.
  bool ok() const;
};

/// sim_json plus a "replay" object: the decisions followed, skipped and reordered, the
/// deliveries compared and, when as_recorded, the identity check.
nlohmann::json replay_json(const scenario& s, const replay_outcome& o);
/// The run's summary and the simulator's lines, then the replay's: turns followed, notes,
/// identical or not, deliveries, and the replayed trace's path.
void print_replay(std::ostream& out, const scenario& s, const replay_outcome& o);

}  // namespace twinsched
