// An event-by-event stepper over a trace, gdb style: next, continue to a breakpoint, look at workers, queues, mailboxes.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "cli/commands.hpp"
#include "traces/breakpoint.hpp"
#include "traces/trace_reader.hpp"

namespace CLI {
class App;
}

namespace twinsched::cli {

struct step_options {
  std::vector<traces::breakpoint> breakpoints;  ///< set before the first command
  std::optional<std::uint64_t> until_ns;        ///< stop once at the first event at or after this time
  /// true: read commands from `in` until quit or end of input. false (batch): go to the first
  /// stop (a breakpoint, the until time, or the end), print that event and the state, and
  /// return without reading `in`.
  bool interactive = true;
  /// Echo each command after the prompt, so that a piped transcript reads as typed. Unset:
  /// echo when `in` is std::cin and stdin is not a terminal.
  std::optional<bool> echo;
};

/// `--break SPEC` (repeatable), `--until TIME`, `--batch`, bound to `o` (which must outlive
/// the parse). Bad specs are usage errors (exit 2) naming what was expected.
void add_step_flags(CLI::App* app, step_options& o);

/// Steps through `r` in merged order (time, then lane), streaming: memory holds one block per
/// lane and one record per actor and worker. Returns 0; throws trace_error on a damaged block.
int run_step_session(const traces::trace_reader& r, std::istream& in, std::ostream& out, const step_options& o);

/// `twinsched trace step FILE [--break SPEC]... [--until TIME] [--batch]`, under `trace`.
void add_trace_step_command(CLI::App* trace, action& chosen);

}  // namespace twinsched::cli
