// Parsing, matching and printing of step breakpoints, and the duration syntax they share with --until.
#include "breakpoint.hpp"

#include <cctype>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "format.hpp"
#include "models/whole_number.hpp"
#include "trace_stats.hpp"

namespace twinsched::traces {
namespace {

constexpr const char* forms =
    "expected one of: event N, time T (ns, or with a unit: 120us, 1.5ms, 2s), actor A, worker W, "
    "kind K, or a bare kind name (steal, park, donate, ...)";

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

/// The whole of `s` as an unsigned decimal, or nothing.
std::string known_kinds() {
  std::string s;
  for (unsigned k = 0; k < kind_count; ++k) s += std::string(k ? ", " : "") + kind_name(k);
  return s;
}

std::uint64_t need_number(const std::string& keyword, const std::vector<std::string>& w, const std::string& text) {
  if (w.size() != 2) throw std::invalid_argument("breakpoint '" + text + "': `" + keyword + "` takes one number");
  std::string n = w[1];
  if (keyword == "event" && !n.empty() && n[0] == '#') n.erase(0, 1);
  if (keyword == "worker" && !n.empty() && (n[0] == 'w' || n[0] == 'W')) n.erase(0, 1);
  auto v = whole_number(n);
  if (!v) throw std::invalid_argument("breakpoint '" + text + "': '" + w[1] + "' is not a whole number");
  return *v;
}

}  // namespace

std::optional<event_kind> kind_from_name(const std::string& name) {
  std::string n = lower(name);
  for (char& c : n)
    if (c == '-') c = '_';
  for (unsigned k = 0; k < kind_count; ++k)
    if (n == kind_name(k)) return event_kind(k);
  return std::nullopt;
}

std::uint64_t parse_time_ns(const std::string& text) {
  std::string s;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  std::size_t i = 0;
  std::uint64_t whole = 0, frac = 0, frac_scale = 1;
  bool digits = false;
  constexpr std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, digits = true) {
    if (whole > (max - 9) / 10) throw std::invalid_argument("time '" + text + "' is too large");
    whole = whole * 10 + std::uint64_t(s[i] - '0');
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i, digits = true) {
      if (frac_scale < 1000000000) {  // finer than 1 ns at any unit: dropped
        frac = frac * 10 + std::uint64_t(s[i] - '0');
        frac_scale *= 10;
      }
    }
  }
  if (!digits)
    throw std::invalid_argument("time '" + text + "': expected a number of ns, or a number with a unit (120us, 1.5ms)");
  const std::string unit = lower(s.substr(i));
  std::uint64_t scale = 0;
  if (unit.empty() || unit == "ns") scale = 1;
  else if (unit == "us" || unit == "µs") scale = 1000;
  else if (unit == "ms") scale = 1000000;
  else if (unit == "s") scale = 1000000000;
  else throw std::invalid_argument("time '" + text + "': unknown unit '" + unit + "' (ns, us, ms or s)");
  if (whole > max / scale) throw std::invalid_argument("time '" + text + "' is too large");
  return whole * scale + frac * scale / frac_scale;  // frac * scale < 10^9 * 10^9 < 2^64
}

std::string format_duration(std::uint64_t ns) {
  char b[48];
  const double v = double(ns);
  if (ns < 1000) std::snprintf(b, sizeof b, "%llu ns", static_cast<unsigned long long>(ns));
  else if (ns < 1000000) std::snprintf(b, sizeof b, "%.3f us", v * 1e-3);
  else if (ns < 1000000000) std::snprintf(b, sizeof b, "%.6f ms", v * 1e-6);
  else std::snprintf(b, sizeof b, "%.9f s", v * 1e-9);
  return b;
}

breakpoint breakpoint::parse(const std::string& text) {
  const auto w = words(text);
  if (w.empty()) throw std::invalid_argument(std::string("empty breakpoint: ") + forms);
  const std::string key = lower(w[0]);
  breakpoint b;
  if (key == "event") {
    b.on = what::event;
    b.value = need_number(key, w, text);
    if (b.value == 0) throw std::invalid_argument("breakpoint '" + text + "': events are numbered from 1");
  } else if (key == "time") {
    if (w.size() < 2)
      throw std::invalid_argument("breakpoint '" + text + "': `time` takes a time (120000, 120us, 1.5ms)");
    b.on = what::time;
    b.value = parse_time_ns(text.substr(text.find(w[0]) + w[0].size()));
  } else if (key == "actor") {
    b.on = what::actor;
    b.value = need_number(key, w, text);
    if (b.value == 0 || b.value > std::numeric_limits<std::uint32_t>::max())
      throw std::invalid_argument("breakpoint '" + text + "': actor ids run from 1 to 4294967295");
  } else if (key == "worker") {
    b.on = what::worker;
    if (w.size() == 2 && lower(w[1]) == "outside") {
      b.value = outside_lane;
    } else {
      b.value = need_number(key, w, text);
      if (b.value >= outside_lane)
        throw std::invalid_argument("breakpoint '" + text + "': worker numbers run from 0 to 65534 (or `outside`)");
    }
  } else if (key == "kind") {
    if (w.size() != 2) throw std::invalid_argument("breakpoint '" + text + "': `kind` takes one kind name");
    auto k = kind_from_name(w[1]);
    if (!k) throw std::invalid_argument("breakpoint '" + text + "': unknown event kind; kinds: " + known_kinds());
    b.on = what::kind;
    b.value = std::uint64_t(*k);
  } else if (auto k = kind_from_name(w[0]); k && w.size() == 1) {
    b.on = what::kind;
    b.value = std::uint64_t(*k);
  } else {
    throw std::invalid_argument("unknown breakpoint '" + text + "': " + forms);
  }
  return b;
}

bool breakpoint::hit(const trace_event& e, std::uint64_t ordinal, std::optional<std::uint64_t> previous_ns) const {
  switch (on) {
    case what::event: return ordinal == value;
    case what::time: return e.time_ns >= value && (!previous_ns || *previous_ns < value);
    case what::actor: return e.actor == value || (e.kind == event_kind::donate && e.other == value);
    case what::worker: return e.worker == value;
    case what::kind: return std::uint64_t(e.kind) == value;
  }
  return false;
}

std::string breakpoint::describe() const {
  switch (on) {
    case what::event: return "event " + std::to_string(value);
    case what::time: return "time " + format_duration(value);
    case what::actor: return "actor " + std::to_string(value);
    case what::worker: return value == outside_lane ? "worker outside" : "worker " + std::to_string(value);
    case what::kind: return std::string("kind ") + kind_name(unsigned(value));
  }
  return "?";
}

}  // namespace twinsched::traces
