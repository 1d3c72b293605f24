// What one streaming pass over a trace measures: event counts, per-worker time shares, queueing delays.
#pragma once
#include <array>
#include <cstdint>
#include <map>

#include "histogram.hpp"
#include "trace_reader.hpp"

namespace twinsched::traces {

/// One worker's time, from its events: between its worker_start and worker_stop (its span),
/// time inside actor turns (run_begin..run_end), parked (park..unpark), idle (idle..its next
/// event, parks included).
struct worker_time {
  std::uint64_t start_ns = 0, stop_ns = 0;
  std::uint64_t running_ns = 0, parked_ns = 0, idle_ns = 0;
  std::uint64_t turns = 0, messages = 0;
  std::uint64_t span() const { return stop_ns > start_ns ? stop_ns - start_ns : 0; }
  double share(std::uint64_t part) const { return span() ? 100.0 * double(part) / double(span()) : 0; }
};

struct trace_stats {
  std::uint64_t events = 0;
  std::array<std::uint64_t, 16> by_kind{};
  std::uint64_t first_ns = 0, last_ns = 0;
  std::map<std::uint16_t, worker_time> workers;          ///< by lane, workers only
  histogram queueing;                                    ///< send -> message_begin, every message (full level)
  std::map<std::uint32_t, histogram> queueing_by_group;  ///< by the receiving actor's group
  std::uint64_t unmatched = 0;                           ///< message begins whose send is not in the trace
  std::uint64_t reordered = 0;                           ///< begins stamped before their send (interpolation; delay 0)
  bool has_messages() const { return queueing.count() > 0; }
  std::uint64_t count(event_kind k) const { return by_kind[unsigned(k)]; }
  std::uint64_t duration() const { return last_ns - first_ns; }
};

/// Reads the whole trace once, in time order (merged_cursor), holding one block per lane and
/// the sends still waiting for their message_begin. Throws trace_error on a damaged block.
trace_stats compute_stats(const trace_reader& r);

/// Display name of an event kind ("run_begin").
const char* kind_name(unsigned kind);

}  // namespace twinsched::traces
