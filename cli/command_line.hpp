// What every entry point of the twinsched command line shares: the top-level App, and turning a
// parse and the chosen action into an exit code (0 OK, 1 a run's verdict failed, 2 bad input).
#pragma once
#include <memory>

#include "cli/commands.hpp"

namespace twinsched::cli {

/// The top-level `twinsched` App with no subcommand yet: its description, --version, one
/// subcommand required, and CLI11's parse errors as one line naming the chosen command's --help.
std::unique_ptr<CLI::App> make_app();

/// Parses argv into `app` (whose subcommands set `chosen`), then runs `chosen`. Every error
/// ends as one line on stderr: a bad flag or scenario exits 2, a failed run 1, help and
/// --version 0.
int parse_and_run(CLI::App& app, const action& chosen, int argc, char** argv);

}  // namespace twinsched::cli
