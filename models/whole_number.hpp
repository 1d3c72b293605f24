// Reading a whole number from text, as every command, file and environment knob of the project does: digits only.
#pragma once
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace twinsched {

/// `text` as a whole number: decimal digits only (no sign, no spaces, no unit) that fit 64
/// bits; nullopt otherwise (strtoull would take "-5" as 2^64 - 5, and " 5" as 5).
inline std::optional<std::uint64_t> whole_number(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace twinsched
