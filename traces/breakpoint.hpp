// A stepping breakpoint over a trace: an event number, a time, an actor, a worker or an event kind, parsed from text.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "models/trace_event.hpp"

namespace twinsched::traces {

/// Where a step session stops. A breakpoint is checked against each event as it is applied:
/// the session stops with the matching event applied (the state shown includes it), so
/// `event 120` stops with event #120 just applied, and `time T` with the first event at or
/// after T just applied. Event and time breakpoints fire once (the event whose number, or
/// whose step over T, they name); actor, worker and kind breakpoints fire on every match.
struct breakpoint {
  enum class what : std::uint8_t { event, time, actor, worker, kind };
  what on = what::event;
  std::uint64_t value = 0;  ///< event ordinal (1-based), time in ns, actor id, worker lane, or event_kind

  /// "event 120" | "time 120000" (ns) | "time 120us" (ns, us, ms, s) | "actor 17" | "worker 1"
  /// (or "worker outside") | "kind steal" | "steal" (a bare kind name). Throws
  /// std::invalid_argument with a message that says what was expected.
  static breakpoint parse(const std::string& text);

  /// Whether applying `e`, the event numbered `ordinal` (1-based), hits this breakpoint;
  /// `previous_ns` is the time of the event applied before it (none: `e` is the first).
  bool hit(const trace_event& e, std::uint64_t ordinal, std::optional<std::uint64_t> previous_ns) const;

  /// Back to text, in the form parse() reads: "kind steal", "time 1.5 ms".
  std::string describe() const;
};

/// "120000" (ns), "120ns", "120us", "1.5ms", "2s", also with a space before the unit -> ns.
/// Throws std::invalid_argument for anything else (negative, no digits, an unknown unit).
std::uint64_t parse_time_ns(const std::string& text);

/// ns as a readable duration with the unit that fits: "950 ns", "12.500 us", "1.234567 ms", "2.000000 s".
std::string format_duration(std::uint64_t ns);

/// An event kind by its trace name ("run_begin"; "-" may stand for "_"), or nothing.
std::optional<event_kind> kind_from_name(const std::string& name);

}  // namespace twinsched::traces
