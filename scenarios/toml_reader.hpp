// Internal to the scenario loader: typed, range-checked reads of TOML keys that fail with file:line:col.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "models/workload/workload.hpp"

namespace twinsched::detail {

/// "integer", "string", "table", ... as users read them in error messages.
std::string_view toml_type_name(const toml::node& n);
/// "a, b, c".
std::string joined(const std::vector<std::string>& names);

/// Reads keys of one scenario source. Every read checks type and range; every failure
/// throws scenario_error at the offending key or value. `path` arguments are the dotted
/// names used in messages ("scheduler.workers").
class toml_reader {
 public:
  /// With `positions` false, errors carry no line:col (used for command-line overrides).
  explicit toml_reader(std::string source, bool positions = true)
      : source_(std::move(source)), positions_(positions) {}

  /// Parses `text` (named by the source given at construction); a syntax error fails at its position.
  toml::table parse(std::string_view text) const;

  [[noreturn]] void fail(const toml::source_region& where, const std::string& message) const;
  [[noreturn]] void fail_at_start(const std::string& message) const;

  /// Rejects the first key (in document order) of `t` not in `allowed`; `where` names the table.
  void check_keys(const toml::table& t, std::string_view where,
                  const std::vector<std::string>& allowed) const;
  /// The sub-table `key` of `t`, or nullptr when absent; fails if `key` is not a table.
  const toml::table* table(const toml::table& t, std::string_view key, std::string_view path) const;

  /// Each `read` leaves `out` untouched when `key` is absent.
  void read(const toml::table& t, std::string_view key, std::string_view path, std::string& out) const;
  void read(const toml::table& t, std::string_view key, std::string_view path, bool& out) const;
  /// An integer in [min, max].
  void read(const toml::table& t, std::string_view key, std::string_view path, std::uint64_t& out,
            std::uint64_t min, std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const;
  void read(const toml::table& t, std::string_view key, std::string_view path, std::uint32_t& out,
            std::uint32_t min) const;
  /// Microseconds in the file, nanoseconds in `out`; at least `min_us`.
  void read_us_as_ns(const toml::table& t, std::string_view key, std::string_view path,
                     std::uint64_t& out, std::uint64_t min_us) const;
  /// A string that must be one of `names`; `what` names the kind ("policy", "idle strategy").
  void read_choice(const toml::table& t, std::string_view key, std::string_view path, std::string& out,
                   const std::vector<std::string>& names, std::string_view what) const;

  /// A workload parameter: the spec's type (an integer is accepted for a real) and >= spec.min.
  param_value read_param(const toml::node& v, const param_spec& spec, std::string_view path) const;

 private:
  [[noreturn]] void fail_type(const toml::node& v, std::string_view path, std::string_view expected) const;
  std::string source_;
  bool positions_;
};

}  // namespace twinsched::detail
