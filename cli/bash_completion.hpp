// The bash completion script, written from a plain description of the command tree (what
// `twinsched completion bash` reads off its own parser), so the script cannot drift from it.
#pragma once
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace twinsched::cli {

/// What may stand for an option's value or a positional argument: these words, file names, or both.
struct completion_values {
  std::vector<std::string> words;
  enum { none, any_file, toml_file } files = none;
};

/// One command of the tree, as completion needs it.
struct completion_command {
  std::string path;                  ///< "" for twinsched itself, "sim", "trace info", ...
  std::vector<std::string> options;  ///< every option's names ("-o", "--out", "--json")
  /// Each name of an option that takes a value, with what the value may be.
  std::vector<std::pair<std::string, completion_values>> option_values;
  completion_values arguments;           ///< what its positionals (and grouped subcommands' names) may be
  std::vector<std::string> subcommands;  ///< the names of its subcommands, hidden ones too
};

/// The bash completion script (`complete -F _twinsched twinsched`) for `commands`: after the
/// words that name a command, an option's value, an option name (after '-') or an argument.
void write_bash_completion(std::ostream& out, const std::vector<completion_command>& commands);

}  // namespace twinsched::cli
