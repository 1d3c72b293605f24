// The trace footer: what the run measured, per lane, per worker and per actor, written once the run is over.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "byte_io.hpp"
#include "format.hpp"
#include "models/run_result.hpp"
#include "models/trace_event.hpp"

namespace twinsched::traces {

/// One lane's totals, kept by the recorder while it encodes.
struct lane_summary {
  std::uint16_t lane = 0;  ///< worker index, or outside_lane
  std::uint64_t events = 0;
  std::uint64_t clock_reads = 0;  ///< events stamped by a clock read; the others were interpolated
  std::uint64_t stalls = 0;       ///< times the worker waited for a free buffer (recorder behind)
  std::uint64_t event_hash = 0;   ///< sum of event_hash_term over the lane's events (checksum.hpp)
  std::uint64_t first_ns = 0, last_ns = 0;
  std::array<std::uint64_t, 16> by_kind{};
  // A real run's worker lane: what the host took from it (see trace_footer::off_cpu_recorded).
  std::int64_t run_delay_ns = -1;  ///< the kernel's run delay over the worker's life (schedstat); -1: unknown
  std::uint64_t off_cpu_ns = 0;    ///< what its handlings' ends say they were off a CPU (format.hpp)
};

struct trace_footer {
  std::uint64_t messages = 0, expected_messages = 0, dead_letters = 0, leftover = 0;
  std::uint64_t wall_ns = 0;  ///< workers' start to quiescence (the run's makespan)
  std::uint64_t checksum = 0, reference = 0;
  bool workload_ok = true, ok = true;
  std::string detail;
  std::uint64_t error_count = 0;
  std::vector<std::string> errors;  ///< the first few
  std::vector<worker_stats> per_worker;
  std::vector<lane_summary> lanes;  ///< every lane that recorded an event, by lane number
  bool has_actors = false;          ///< per-actor deliveries were collected (tracing was on)
  /// The actors' payload digests were tallied (full level; models/delivery_tally.hpp says
  /// why not at decisions): else every digest is 0 and only the counts say anything.
  bool has_digests = false;
  std::vector<actor_stats> actors;  ///< sorted by id
  /// The format version whose payload hash made the digests (format.hpp: 2, or
  /// digest_hash_version from 3 on): not stored in the footer but set by the reader from the
  /// header's version. Digests of different hashes are not comparable (comparable_digests).
  std::uint16_t digest_format = digest_hash_version;
  std::string clock_note;           ///< how time was measured (calibration, clock reads)
  /// The recorder accounted for time off a CPU (the lanes' run_delay_ns and off_cpu_ns, and
  /// message_end's `other`: format.hpp). False in traces recorded before it did, whose real
  /// handlings count any preemption as work.
  bool off_cpu_recorded = false;
  /// The run's latency and CPU figures (run_result: each worker's parked_ns and cpu_ns, the
  /// requests' latency, the sampled scheduling delay, the timers). False in traces recorded
  /// before the runtime measured them: then they read 0.
  bool latency_recorded = false;
  latency_summary request_latency, scheduling_delay;
  std::uint64_t timers = 0;

  std::uint64_t events() const;
  std::uint64_t count(unsigned kind) const;
};

/// When the run began, on the trace's clock: its first event (the workload's start sends,
/// on the outside lane, before any worker starts), or 0 in a trace without events. Every
/// tool that shows a trace's times (trace step, trace info, diff, report, analyze, export
/// perfetto) shows them since this moment, through since_run_start, so that a time read off
/// one finds the same event in another. (A real run's clock starts earlier, when the
/// recorder is set up and its memory faulted in, tens of milliseconds before the run.)
std::uint64_t run_start_ns(const trace_footer& f);

/// `t` (the trace's clock) as time since the run began, `start` = run_start_ns.
inline std::uint64_t since_run_start(std::uint64_t t, std::uint64_t start) { return t > start ? t - start : 0; }

/// True if both footers hold digests made by the same payload hash (else compare counts only).
inline bool comparable_digests(const trace_footer& a, const trace_footer& b) {
  return a.has_digests && b.has_digests && a.digest_format == b.digest_format;
}

/// Why two footers' digests were not compared, for the user (diff, replay); "" if they were.
std::string digest_note(const trace_footer& a, const trace_footer& b);

/// The run's measurements (not lanes or clock_note, which the recorder adds), from a run
/// traced at `level`: at full level its per-actor digests (the workers tally them at full
/// level only: models/delivery_tally.hpp).
trace_footer footer_from_result(const run_result& r, trace_level level);

void encode_footer(const trace_footer& f, byte_sink& out);
/// `version`: the trace's format version (the header's), which says how digests were stored.
trace_footer decode_footer(byte_source& in, std::uint16_t version);

}  // namespace twinsched::traces
