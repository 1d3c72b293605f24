// An event-by-event stepper over a trace, gdb style: next, continue to a breakpoint, look at workers, queues, mailboxes.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "breakpoint.hpp"
#include "trace_reader.hpp"

namespace twinsched::traces {

struct step_options {
  std::vector<breakpoint> breakpoints;    ///< set before the first command
  std::optional<std::uint64_t> until_ns;  ///< stop once at the first event at or after this time
  /// true: read commands from `in` until quit or end of input. false (batch): go to the first
  /// stop (a breakpoint, the until time, or the end), print that event and the state, and
  /// return without reading `in`.
  bool interactive = true;
  /// Echo each command after the prompt, so that a piped transcript reads as typed. Unset:
  /// echo when `in` is std::cin and stdin is not a terminal.
  std::optional<bool> echo;
};

/// Steps through `r` in merged order (time, then lane), streaming: memory holds one block per
/// lane and one record per actor and worker. Returns 0; throws trace_error on a damaged block.
int run_step_session(const trace_reader& r, std::istream& in, std::ostream& out, const step_options& o);

}  // namespace twinsched::traces
