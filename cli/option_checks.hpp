// Checks for command-line values: a bad one stops the parse with one line naming the option, what it takes and the value.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/config.hpp"

namespace CLI {
class Option;
}

namespace twinsched::cli {

/// Limits the runtimes enforce (workers_limit: validate() in models/config.hpp; cores: simulate() in
/// sim/run_sim.cpp), checked while parsing so that a bad flag fails with its own message.
inline constexpr std::uint32_t cores_limit = 256;  // sim_detail::core_set::max_cores (sim_platform.hpp)

/// A bad command-line value, thrown while the command line is parsed; main prints
/// "twinsched: " + what() on one line and exits with code 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// "1024" -> 1024 if it lies in [lo, hi]: digits only (no sign, space or exponent); else
/// throws std::invalid_argument.
std::uint64_t parse_whole(const std::string& text, std::uint64_t lo, std::uint64_t hi);
/// "16" or "1,2,4" -> the numbers, each a parse_whole in [lo, hi]; throws std::invalid_argument
/// for a bad one or an empty list (a trailing comma included).
std::vector<std::uint32_t> parse_whole_list(const std::string& text, std::uint32_t lo, std::uint32_t hi);
/// "0.5" -> 0.5: a finite decimal number above 0 (at least 0 with zero_ok); else throws
/// std::invalid_argument.
double parse_decimal(const std::string& text, bool zero_ok);

/// Checks each value of `opt` with `parse`, which throws std::invalid_argument for a bad one;
/// then the parse stops with usage_error("--NAME takes WHAT, not 'TEXT'"). Returns opt.
CLI::Option* takes(CLI::Option* opt, const std::string& what, std::function<void(const std::string&)> parse);
/// takes() for a whole number: "--workers takes a whole number from 1 to 1024, not '0'".
CLI::Option* takes_whole(CLI::Option* opt, std::uint64_t lo, std::uint64_t hi);
/// Like takes(), where the parser's own message says best what is wrong:
/// usage_error("--NAME: " + its message), e.g. "--until: time '5x': unknown unit 'x' (...)".
CLI::Option* takes_parsed(CLI::Option* opt, std::function<void(const std::string&)> parse);
/// takes_parsed() with the one trace-level parser (models/config.hpp level_from_name):
/// "--trace-level: unknown trace level 'x' (known: off, decisions, full)". Without off_ok,
/// "off" is refused too, for a command whose whole point is the trace it records.
CLI::Option* takes_level(CLI::Option* opt, bool off_ok);

}  // namespace twinsched::cli
