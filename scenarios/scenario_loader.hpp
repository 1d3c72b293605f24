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

}  // namespace twinsched
