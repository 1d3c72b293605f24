// Checks for command-line values: whole and decimal numbers with their ranges, trace levels, and the one-line error a bad one gets.
#include "cli/option_checks.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <utility>

#include <CLI/CLI.hpp>

#include "models/config.hpp"

namespace twinsched::cli {

std::uint64_t parse_whole(const std::string& text, std::uint64_t lo, std::uint64_t hi) {
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  if (text.empty()) throw std::invalid_argument("empty");
  std::uint64_t v = 0;
  for (char ch : text) {
    if (ch < '0' || ch > '9') throw std::invalid_argument("not a whole number");
    const auto digit = std::uint64_t(ch - '0');
    if (v > (max - digit) / 10) throw std::invalid_argument("too large");
    v = v * 10 + digit;
  }
  if (v < lo || v > hi) throw std::invalid_argument("out of range");
  return v;
}

std::vector<std::uint32_t> parse_whole_list(const std::string& text, std::uint32_t lo, std::uint32_t hi) {
  std::vector<std::uint32_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::uint32_t(parse_whole(item, lo, hi)));
  if (v.empty() || text.back() == ',') throw std::invalid_argument("no number");
  return v;
}

double parse_decimal(const std::string& text, bool zero_ok) {
  // strtod would skip leading spaces and read "inf", "nan" and hex: accept plain decimals only.
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.'))
    throw std::invalid_argument("not a number");
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  const bool hex = text.find_first_of("xX") != std::string::npos;
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v) || hex)
    throw std::invalid_argument("not a number");
  if (v < 0 || (v == 0 && !zero_ok)) throw std::invalid_argument("out of range");
  return v;
}

namespace {

/// A CLI11 validator that runs `parse` and turns its std::invalid_argument into usage_error(message(text, reason)).
/// usage_error is not a CLI::ValidationError, so it leaves CLI11 as it is, and main prints it unchanged.
/// A `shown` text follows the option's type name in --help ("LEVEL:{decisions,full}").
CLI::Option* check_with(CLI::Option* opt, std::function<void(const std::string&)> parse,
                        std::function<std::string(const std::string&, const std::string&)> message,
                        std::string shown = "") {
  return opt->check(CLI::Validator(
      [parse = std::move(parse), message = std::move(message)](std::string& text) -> std::string {
        try {
          parse(text);
        } catch (const std::invalid_argument& e) {
          throw usage_error(message(text, e.what()));
        } catch (const std::out_of_range& e) {
          throw usage_error(message(text, e.what()));
        }
        return {};
      },
      std::move(shown)));
}

}  // namespace

CLI::Option* takes(CLI::Option* opt, const std::string& what, std::function<void(const std::string&)> parse) {
  const std::string head = opt->get_name() + " takes " + what + ", not '";
  return check_with(opt, std::move(parse),
                    [head](const std::string& text, const std::string&) { return head + text + "'"; });
}

CLI::Option* takes_whole(CLI::Option* opt, std::uint64_t lo, std::uint64_t hi) {
  return takes(opt, "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
               [lo, hi](const std::string& text) { parse_whole(text, lo, hi); });
}

CLI::Option* takes_parsed(CLI::Option* opt, std::function<void(const std::string&)> parse) {
  const std::string head = opt->get_name() + ": ";
  return check_with(opt, std::move(parse), [head](const std::string&, const std::string& why) { return head + why; });
}

CLI::Option* takes_level(CLI::Option* opt, bool off_ok) {
  // The choices, shown in --help as CLI::IsMember shows them (the shell completion reads them there).
  std::string shown, prose;
  for (const std::string& name : trace_level_names())
    if (off_ok || name != level_name(trace_level::off)) {
      shown += (shown.empty() ? "{" : ",") + name;
      prose += (prose.empty() ? "" : " or ") + name;
    }
  const std::string head = opt->get_name() + ": ";
  return check_with(
      opt,
      [off_ok, prose](const std::string& text) {
        if (level_from_name(text) == trace_level::off && !off_ok)
          throw std::invalid_argument("this command records a trace to use: " + prose + ", not 'off'");
      },
      [head](const std::string&, const std::string& why) { return head + why; }, shown + "}");
}

}  // namespace twinsched::cli
