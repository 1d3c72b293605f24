// Each worker's state over a trace: the one state machine that trace info, trace step, the report's profile and the Perfetto export read.
//
// Overview
//   worker_states applies a trace's events one at a time and keeps, per worker lane, what
//   the worker is doing. It tells a worker_visitor of two views of the same history:
//   - status segments, exclusive (one at a time): not started, looking for work, running a
//     turn, idle, parked, stopped. An idle spell with a park inside is idle, parked, idle.
//   - spans, nested as a timeline draws them: a turn (run_begin..run_end) holding the
//     messages it handled (message_begin..message_end), an idle spell (idle..the worker's
//     next event other than park, unpark and idle) holding its parks (park..unpark).
//   Each is reported when it ends, in the order of the events that end it; finish() cuts
//   what is still open (lanes ascending; per lane message, turn, park, idle spell).
//
// Ordering
//   Only each lane's own order matters: a lane's events must come in the order it recorded
//   them, but lanes may interleave in any way (merged_cursor's time order, or a window of it).
//   Times are whatever the events carry: visit_worker_states gives them since the run began
//   (footer.hpp run_start_ns), the time base every tool shares.
//
// Transitions, per worker event at time t (the outside lane has no worker: ignored)
//   - a worker not started yet starts looking at its first event, whatever it is (a
//     segment is reported only once a worker has started; one may have no length);
//   - an idle spell ends (with a park still open in it) at the worker's next event other
//     than park, unpark and idle: the worker is looking for work;
//   - worker_start: looking; worker_stop: stopped; run_begin: running its actor (a turn
//     begun twice keeps the later); run_end: the turn (and a message left open in it,
//     reported as cut) ends, looking;
//   - idle: an idle spell begins unless one is open; park: parked (a park outside an idle
//     spell starts the spell there, but no idle span); unpark: idle again, the park ends.
//   Entering the status a worker is already running, idle or parked in changes nothing;
//   entering looking or stopped again starts a new segment.
#pragma once
#include <cstdint>
#include <vector>

#include "models/trace_event.hpp"

namespace twinsched::traces {

class trace_reader;

enum class worker_status : std::uint8_t { not_started, looking, running, idle, parked, stopped };

/// Display name of a worker status: "not started", "looking for work", "running", ...
const char* status_name(worker_status s);

/// One worker's time in one status, reported when it leaves it.
struct status_segment {
  std::uint16_t lane = 0;
  worker_status status = worker_status::looking;
  std::uint64_t begin_ns = 0, end_ns = 0;
  std::uint32_t actor = 0;  ///< the actor of the worker's latest turn (running: this one)
};

enum class span_kind : std::uint8_t { turn, message, idle, parked };

/// A nested span: a turn, a message in it, an idle spell, a park in it.
struct worker_span {
  span_kind kind = span_kind::turn;
  std::uint16_t lane = 0;
  std::uint64_t begin_ns = 0, end_ns = 0;
  std::uint32_t actor = 0;       ///< turn and message: the actor
  std::uint64_t message = 0;     ///< message: its id
  std::uint64_t messages = 0;    ///< turn: the message_begin events inside it (full level)
  std::uint64_t processed = 0;   ///< turn: the messages its run_end says it processed (every level)
  std::uint64_t off_cpu_ns = 0;  ///< message: its message_end's other (time off a CPU); turn: its messages' sum
  bool ended = true;             ///< false: cut, by finish() or (a message) by its turn's end
};

/// What a worker is doing now, and the spans it has open.
struct worker_lane {
  bool seen = false;  ///< an event of this lane was applied
  worker_status status = worker_status::not_started;
  std::uint64_t since = 0;      ///< when the current segment began (idle after a park: the unpark)
  std::uint64_t spell_ns = 0;   ///< idle or parked: when the idle spell began
  std::uint64_t parked_ns = 0;  ///< parked: when it parked
  std::uint64_t woke_ns = 0;    ///< idle after a park in this spell: when it unparked (0: none)
  std::uint32_t actor = 0;      ///< the latest turn's actor
  bool in_turn = false, in_message = false, in_idle = false, in_park = false;
  worker_span turn, message, idle, park;  ///< the open spans' beginnings
};

/// Told of segments and spans as they end. Every member does nothing unless overridden.
class worker_visitor {
 public:
  virtual ~worker_visitor() = default;
  virtual void segment(const status_segment&) {}
  virtual void span(const worker_span&) {}
  /// visit_worker_states only: every event (the outside lane's too), after what it ended.
  virtual void event(const trace_event&) {}
};

class worker_states {
 public:
  /// Applies `e` (its lane's next event): reports the segments and spans it ends to `v`.
  void apply(const trace_event& e, worker_visitor& v);
  /// Cuts every open span and the current segment of every started, not stopped, worker at `end_ns`.
  void finish(std::uint64_t end_ns, worker_visitor& v);
  /// The lane's state (a not-started one if no event of it was applied).
  const worker_lane& lane(std::uint16_t w) const;

 private:
  worker_lane& at(std::uint16_t w);
  void enter(worker_lane& l, std::uint16_t w, worker_status s, std::uint64_t t, worker_visitor& v);
  std::vector<worker_lane> lanes_;
};

/// Walks `r` once in time order (merged_cursor), times since the run began, then finishes at
/// the last event: every event to v.event after the segments and spans it ends.
void visit_worker_states(const trace_reader& r, worker_visitor& v);

}  // namespace twinsched::traces
