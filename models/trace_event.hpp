// The trace event vocabulary shared by both backends; emitted from models/ through the platform.
#pragma once
#include <cstdint>

namespace twinsched {

enum class event_kind : std::uint8_t {
  worker_start, worker_stop, send, schedule, run_begin, run_end, message_begin, message_end,
  steal, donate, migrate, park, unpark, thread_start, thread_retire,
  idle,  ///< the worker found no work: an idle spell starts (it ends at its next event)
};

/// Trace detail. `decisions` records scheduling decisions only (schedule, run, steal,
/// donate, migrate, park, unpark, idle, thread start/retire); `full` adds sends and messages.
enum class trace_level : std::uint8_t { off, decisions, full };

/// Whether a trace at level `l` records events of kind `k`.
constexpr bool recorded_at(event_kind k, trace_level l) {
  if (l == trace_level::off) return false;
  if (l == trace_level::full) return true;
  return k != event_kind::send && k != event_kind::message_begin && k != event_kind::message_end;
}

/// `trace_event::worker` of events emitted outside any worker (the workload's start).
inline constexpr std::uint16_t outside_worker = 0xffff;

struct trace_event {
  std::uint64_t time_ns = 0;
  std::uint64_t message = 0;  ///< message id, 0 if none
  std::uint32_t actor = 0;    ///< actor id, 0 if none
  std::uint32_t other = 0;    ///< victim / target worker / queue, by kind
  std::uint16_t worker = 0;
  event_kind kind = event_kind::send;
};

/// `e` as a trace at level `l` holds it, for an `e` that recorded_at(e.kind, l) keeps (a
/// replay recorded at a finer level than its recording is compared this way). A decisions
/// trace names no message in a worker's run_begin (receive position), schedule and donate
/// (ids): models/worker.hpp numbers messages at full level only; the outside lane numbers
/// its messages at every level.
constexpr trace_event at_level(trace_event e, trace_level l) {
  if (l != trace_level::full && e.worker != outside_worker &&
      (e.kind == event_kind::run_begin || e.kind == event_kind::schedule || e.kind == event_kind::donate))
    e.message = 0;
  return e;
}

}  // namespace twinsched
