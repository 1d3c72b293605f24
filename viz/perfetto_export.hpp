// Exporting a trace (a view of it) as Chrome trace-event JSON for ui.perfetto.dev / chrome://tracing: slices, flows, counters.
#pragma once
#include <cstdint>
#include <limits>
#include <ostream>

#include "traces/trace_reader.hpp"

namespace twinsched::viz {

using traces::trace_reader;

struct perfetto_options {
  std::uint64_t from_ns = 0;                                        ///< window start, since the run began
  std::uint64_t to_ns = std::numeric_limits<std::uint64_t>::max();  ///< window end
  std::uint64_t max_flows = 10000;       ///< message arrows at most (about): more are sampled
  std::uint64_t counter_step_ns = 1000;  ///< counters are sampled at most this often
};

struct perfetto_summary {
  std::uint64_t slices = 0, instants = 0, flows = 0, counters = 0;
  std::uint64_t messages = 0;      ///< messages sent inside the window
  std::uint64_t sample_every = 1;  ///< 1: every message gets an arrow; k: about 1 in k
  bool no_flows = false;           ///< max_flows was 0
  bool sampled() const { return !no_flows && sample_every > 1; }
};

/// Writes the JSON object to `out`, streaming (one block per lane in memory):
///   - one track (thread) per worker, plus "workload start" for the outside lane;
///   - slices: "actor N" turns (run_begin..run_end) containing "message" slices (full level),
///     "idle" spells containing "parked" slices; all clipped to the window, so on each track
///     slices nest and never overlap;
///   - instants: steals (victim, actor), donations, migrations, thread start/retire;
///   - flows: an arrow from each sampled send to its message slice (full level);
///   - counters: "runnable actors" (schedules minus turns started) and "parked workers".
/// Every "ts" is microseconds since the run began (traces::run_start_ns: the trace's first
/// event), the time base of `trace step` and the report. `otherData` says whether flows were
/// sampled and how.
perfetto_summary export_perfetto(const trace_reader& r, std::ostream& out, const perfetto_options& o);

}  // namespace twinsched::viz
