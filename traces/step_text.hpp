// How stepping prints: one event as one line; a step_state's workers, runnable actors, mailboxes and counts.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>

#include "models/trace_event.hpp"
#include "step_state.hpp"

namespace twinsched::traces {

/// "w1", or "outside" for the workload's start.
std::string worker_label(std::uint32_t w);
/// A time since the run began, always in ms with ns resolution: "1.234567 ms".
std::string time_label(std::uint64_t ns);
/// "#1234  1.234567 ms  w1  run_begin  actor 17  (last ran on w0)": the fields that mean
/// something for the event's kind (format.hpp's "Event meaning").
std::string event_line(std::uint64_t ordinal, const trace_event& e);

void print_workers(std::ostream& out, const step_state& s);
/// Runnable actors by group, at most `per_group` listed in each.
void print_queues(std::ostream& out, const step_state& s, std::size_t per_group = 16);
/// The `top` largest mailboxes and the total; says so when the trace has no message events.
void print_mailboxes(std::ostream& out, const step_state& s, std::size_t top, const std::string& level);
/// Events applied, by kind, on one line.
void print_counts(std::ostream& out, const step_state& s);

}  // namespace twinsched::traces
