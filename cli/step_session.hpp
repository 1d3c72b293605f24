// The stepper's command line (traces/step_session.hpp steps): `trace step`, and the flags replay --step shares.
#pragma once
#include "cli/commands.hpp"
#include "traces/step_session.hpp"

namespace CLI {
class App;
}

namespace twinsched::cli {

using traces::run_step_session;
using traces::step_options;

/// `--break SPEC` (repeatable), `--until TIME`, `--batch`, bound to `o` (which must outlive
/// the parse). Bad specs are usage errors (exit 2) naming what was expected.
void add_step_flags(CLI::App* app, step_options& o);

/// `twinsched trace step FILE [--break SPEC]... [--until TIME] [--batch]`, under `trace`.
void add_trace_step_command(CLI::App* trace, action& chosen);

}  // namespace twinsched::cli
