// Typed, range-checked reads of TOML keys for the scenario loader; every failure names file:line:col.
#include "toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "scenario_loader.hpp"

namespace twinsched {
namespace detail {
namespace {

/// Optimal-string-alignment distance: insertions, deletions, substitutions, adjacent swaps.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace
}  // namespace detail

std::string nearest_name(std::string_view given, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_d = std::max<std::size_t>(1, given.size() / 3) + 1;  // one edit per three letters, at least one
  for (const auto& n : names) {
    const std::size_t d = detail::edit_distance(given, n);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

namespace detail {
namespace {

/// " (did you mean 'x'?)" for a near miss (nearest_name), else "".
std::string suggestion(std::string_view given, const std::vector<std::string>& names) {
  const std::string best = nearest_name(given, names);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

std::string number_text(double x) {
  std::ostringstream o;
  if (x == std::floor(x) && std::fabs(x) < 1e15)
    o << static_cast<long long>(x);
  else
    o << x;
  return o.str();
}

bool before(const toml::source_position& a, const toml::source_position& b) {
  return a.line != b.line ? a.line < b.line : a.column < b.column;
}

}  // namespace

std::string_view toml_type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

std::string joined(const std::vector<std::string>& names) {
  std::string r;
  for (const auto& n : names) r += (r.empty() ? "" : ", ") + n;
  return r;
}

toml::table toml_reader::parse(std::string_view text) const {
  try {
    return toml::parse(text, source_);
  } catch (const toml::parse_error& e) {
    fail(e.source(), std::string(e.description()));
  }
}

void toml_reader::fail(const toml::source_region& where, const std::string& message) const {
  std::string one_line = message;
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  if (!positions_) throw scenario_error(source_, 0, 0, one_line);
  throw scenario_error(source_, where.begin.line, where.begin.column, one_line);
}

void toml_reader::fail_at_start(const std::string& message) const {
  toml::source_region start;
  start.begin = {1, 1};
  fail(start, message);
}

void toml_reader::fail_type(const toml::node& v, std::string_view path, std::string_view expected) const {
  fail(v.source(), std::string(path) + ": expected " + std::string(expected) + ", got " +
                       std::string(toml_type_name(v)));
}

void toml_reader::check_keys(const toml::table& t, std::string_view where,
                             const std::vector<std::string>& allowed) const {
  const toml::key* first = nullptr;
  for (auto&& [k, v] : t) {
    if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
    if (!first || before(k.source().begin, first->source().begin)) first = &k;
  }
  if (!first) return;
  fail(first->source(), "unknown key '" + std::string(first->str()) + "' in " + std::string(where) +
                            suggestion(first->str(), allowed) + "; valid keys: " + joined(allowed));
}

const toml::table* toml_reader::table(const toml::table& t, std::string_view key, std::string_view path) const {
  const toml::node* n = t.get(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail_type(*n, path, "table");
  return n->as_table();
}

void toml_reader::read(const toml::table& t, std::string_view key, std::string_view path, std::string& out) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  if (!n->is_string()) fail_type(*n, path, "string");
  out = n->as_string()->get();
}

void toml_reader::read(const toml::table& t, std::string_view key, std::string_view path, bool& out) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  if (!n->is_boolean()) fail_type(*n, path, "boolean");
  out = n->as_boolean()->get();
}

void toml_reader::read(const toml::table& t, std::string_view key, std::string_view path, std::uint64_t& out,
                       std::uint64_t min, std::uint64_t max) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  if (!n->is_integer()) fail_type(*n, path, "integer");
  const std::int64_t x = n->as_integer()->get();
  if (x < 0 || static_cast<std::uint64_t>(x) < min)
    fail(n->source(), std::string(path) + " must be at least " + std::to_string(min) + ", got " + std::to_string(x));
  if (static_cast<std::uint64_t>(x) > max)
    fail(n->source(), std::string(path) + " = " + std::to_string(x) + " is out of range (at most " +
                          std::to_string(max) + ")");
  out = static_cast<std::uint64_t>(x);
}

void toml_reader::read(const toml::table& t, std::string_view key, std::string_view path, std::uint32_t& out,
                       std::uint32_t min) const {
  std::uint64_t wide = out;
  read(t, key, path, wide, min, std::numeric_limits<std::uint32_t>::max());
  out = static_cast<std::uint32_t>(wide);
}

void toml_reader::read_us_as_ns(const toml::table& t, std::string_view key, std::string_view path,
                                std::uint64_t& out, std::uint64_t min_us) const {
  std::uint64_t us = out / 1000;
  read(t, key, path, us, min_us, std::numeric_limits<std::uint64_t>::max() / 1000);
  if (t.get(key)) out = us * 1000;
}

void toml_reader::read_choice(const toml::table& t, std::string_view key, std::string_view path,
                              std::string& out, const std::vector<std::string>& names,
                              std::string_view what) const {
  const toml::node* n = t.get(key);
  if (!n) return;
  if (!n->is_string()) fail_type(*n, path, "string");
  const std::string& v = n->as_string()->get();
  if (std::find(names.begin(), names.end(), v) == names.end())
    fail(n->source(), "unknown " + std::string(what) + " '" + v + "'" + suggestion(v, names) +
                          "; valid: " + joined(names));
  out = v;
}

param_value toml_reader::read_param(const toml::node& v, const param_spec& spec, std::string_view path) const {
  auto check_min = [&](double x) {
    if (!std::isfinite(x)) fail(v.source(), std::string(path) + " must be a finite number");
    if (x < spec.min)
      fail(v.source(), std::string(path) + " must be at least " + number_text(spec.min) + ", got " + number_text(x));
    if (x > spec.max)
      fail(v.source(), std::string(path) + " must be at most " + number_text(spec.max) + ", got " + number_text(x));
  };
  if (std::holds_alternative<std::int64_t>(spec.default_value)) {
    if (!v.is_integer()) fail_type(v, path, "integer");
    const std::int64_t x = v.as_integer()->get();
    if (static_cast<double>(x) < spec.min)
      fail(v.source(), std::string(path) + " must be at least " + number_text(spec.min) + ", got " + std::to_string(x));
    if (static_cast<double>(x) > spec.max)
      fail(v.source(), std::string(path) + " must be at most " + number_text(spec.max) + ", got " + std::to_string(x));
    return x;
  }
  if (std::holds_alternative<double>(spec.default_value)) {
    double x = 0;
    if (v.is_integer())
      x = static_cast<double>(v.as_integer()->get());
    else if (v.is_floating_point())
      x = v.as_floating_point()->get();
    else
      fail_type(v, path, "number");
    check_min(x);
    return x;
  }
  if (std::holds_alternative<bool>(spec.default_value)) {
    if (!v.is_boolean()) fail_type(v, path, "boolean");
    return v.as_boolean()->get();
  }
  if (!v.is_string()) fail_type(v, path, "string");
  const std::string& x = v.as_string()->get();
  if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), x) == spec.choices.end())
    fail(v.source(), std::string(path) + " must be one of " + joined(spec.choices) + ", got '" + x + "'" +
                         suggestion(x, spec.choices));
  return x;
}

}  // namespace detail
}  // namespace twinsched
