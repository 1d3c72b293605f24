// A knob: one setting of a policy or an idle strategy, declared once beside it (its key, help,
// type, range) and read by everything that names it: scenario files, the scenario text in
// traces, command-line flags, validate(), `twinsched list`.
//
// A knob points at the member of the configuration struct that holds it (scheduler_config for
// policies, idle_config for idle strategies); that member's initializer is its default. The
// policy reads the member once, at construction, as before: the registry costs nothing at run
// time. Exactly one of the member pointers is set; it gives the knob's type:
//   boolean  true/false; the flag is --KEY / --no-KEY
//   whole    an integer in [min, max] (32 or 64 bits)
//   text     one of `choices` ("one|half")
//   micros   a 64-bit member in nanoseconds, written as whole microseconds in [min, max] in
//            files and flags; the key ends in _us
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace twinsched {

template <class C>
struct knob {
  const char* key;   ///< scenario-file key; the flag is --KEY with '-' for '_'
  const char* help;  ///< one line, for --help and `twinsched list`
  bool C::*boolean = nullptr;
  std::uint32_t C::*u32 = nullptr;
  std::uint64_t C::*u64 = nullptr;
  std::string C::*text = nullptr;
  std::uint64_t min = 0, max = std::numeric_limits<std::uint64_t>::max();  ///< whole numbers (micros: in us)
  const char* choices = nullptr;  ///< text: "a|b|c"
  bool micros = false;            ///< u64 holds ns; files and flags say whole microseconds

  /// The flag that sets it: "--retire-after-us".
  std::string flag() const {
    std::string f = std::string("--") + key;
    for (char& ch : f)
      if (ch == '_') ch = '-';
    return f;
  }
  /// The value as a scenario file writes it (micros in us, text quoted by the caller).
  std::string value_text(const C& c) const {
    if (boolean) return c.*boolean ? "true" : "false";
    if (u32) return std::to_string(c.*u32);
    if (u64) return std::to_string(micros ? c.*u64 / 1000 : c.*u64);
    return c.*text;
  }
  /// The value in the file's unit, for range checks (micros: ns rounded down to us).
  std::uint64_t number(const C& c) const { return u32 ? c.*u32 : micros ? c.*u64 / 1000 : c.*u64; }
  bool is_number() const { return u32 || u64; }
  /// A text knob's choices, one string each: {"one", "half"}.
  std::vector<std::string> choice_names() const {
    std::vector<std::string> names;
    for (std::string_view rest = choices ? choices : "";;) {
      const auto bar = rest.find('|');
      names.emplace_back(rest.substr(0, bar));
      if (bar == std::string_view::npos) return names;
      rest.remove_prefix(bar + 1);
    }
  }
  /// The allowed values, as `twinsched list` and --help say them: "1..1024", ">= 1", "one|half".
  std::string range_text() const {
    if (boolean) return "true|false";
    if (text) return choices;
    const std::uint64_t top = u32 ? std::numeric_limits<std::uint32_t>::max() : std::numeric_limits<std::uint64_t>::max();
    return max >= top ? ">= " + std::to_string(min) : std::to_string(min) + ".." + std::to_string(max);
  }
};

}  // namespace twinsched
