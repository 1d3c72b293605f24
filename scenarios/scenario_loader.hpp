// Loading scenario files (TOML) into a twinsched::scenario, with one-line file:line:col errors.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "models/config.hpp"

namespace twinsched {

/// A scenario that cannot be loaded. what() is one line: "FILE:LINE:COL: message", or
/// "FILE: message" when there is no position (a missing file, a command-line override).
/// The CLI prints it after "twinsched: " and exits with code 2.
class scenario_error : public std::runtime_error {
 public:
  /// `line` and `column` are 1-based; 0 means "no position".
  scenario_error(std::string file, std::uint32_t line, std::uint32_t column, std::string message);
  const std::string& file() const { return file_; }
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return column_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::uint32_t line_;
  std::uint32_t column_;
  std::string message_;
};

/// Reads and loads the scenario file at `path`; the scenario's `source` is `path`.
scenario load_scenario_file(const std::string& path);
/// Loads `name_or_path`: a path to a scenario file when it contains a '/' or ends in .toml, else
/// a stock scenario's name, the file <name>.toml in stock_scenario_folder() (`forward` is also
/// embedded, so it loads without that folder). A folder, a missing file or an unknown name is a
/// scenario_error naming what was looked for; nothing in the working directory stands in for a
/// stock name.
scenario load_scenario(const std::string& name_or_path);
/// The folder of the stock scenarios (scenarios/stock_folder.hpp): <prefix>/share/twinsched/scenarios
/// beside an installed twinsched, the source tree's scenarios/ for one run from its build folder.
std::string stock_scenario_folder();
/// The stock scenarios' names (the *.toml files in stock_scenario_folder(), without .toml), sorted.
std::vector<std::string> stock_scenario_names();
/// Loads scenario text; `source_name` names it in errors and becomes the scenario's `source`.
scenario load_scenario_text(std::string_view text, const std::string& source_name);

/// The text of scenarios/forward.toml, embedded at build time.
std::string_view default_scenario_text();
/// The embedded forward scenario; its source is "<embedded scenarios/forward.toml>".
scenario load_default_scenario();

/// Applies a command-line workload override "key=value" to `s` with the same checks as a
/// [workload] key in a file. The value is read as a TOML value (42, 0.5, true, "text");
/// anything that is not one is taken as a bare string. Errors name "--param key=value".
void apply_param_override(scenario& s, std::string_view assignment);

/// The *.toml files directly in `dir`, sorted by path; empty if `dir` does not exist.
std::vector<std::string> list_scenario_files(const std::string& dir);

/// The name in `names` that `given` most likely misspells (one edit per three letters, at
/// least one), or "" if none is that near: the loader's "did you mean", and the command line's.
std::string nearest_name(std::string_view given, const std::vector<std::string>& names);

}  // namespace twinsched
