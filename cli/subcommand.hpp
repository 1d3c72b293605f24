// One subcommand's registration: its name, description and --help footer, the options struct
// its flags fill, and the action main runs when the parse chose it.
#pragma once
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

namespace twinsched::cli {

/// A subcommand and the options its flags fill, shared with its action (the flags write into
/// them while the parse runs, after add_command has returned).
template <class Options>
struct subcommand {
  CLI::App* cmd;
  std::shared_ptr<Options> options;
};

/// Adds subcommand `name` to `parent`. When the parse chooses it, `check(options)` (if given)
/// runs first and throws usage_error or CLI::ValidationError for flags that may not go together
/// (exit 2 before any work); then `run(options)` becomes the action main runs.
template <class Options>
subcommand<Options> add_command(CLI::App& parent, action& chosen, const std::string& name,
                                 const std::string& description, const std::string& footer,
                                 int (*run)(const Options&), void (*check)(Options&) = nullptr) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = parent.add_subcommand(name, description);
  cmd->footer(footer);
  cmd->callback([&chosen, options, run, check] {
    if (check) check(*options);
    chosen = [options, run] { return run(*options); };
  });
  return {cmd, options};
}

}  // namespace twinsched::cli
