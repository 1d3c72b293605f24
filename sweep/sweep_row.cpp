// Sweep rows: a cell's result flattened to one CSV line or one JSON object, and read back for --resume and gathering.
#include "sweep/sweep_row.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "sweep/effective_scenario.hpp"

namespace twinsched {
namespace {

/// Shortest text that reads back to the same double, so equal results print equal.
std::string number(double x) {
  char b[64];
  auto [p, ec] = std::to_chars(b, b + sizeof b, x);
  return std::string(b, p);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"') q += '"';
    q += ch == '\n' || ch == '\r' ? ' ' : ch;
  }
  return q + "\"";
}

nlohmann::ordered_json axis_json(const std::string& v) {
  std::int64_t i = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
  if (!v.empty() && ec == std::errc{} && p == v.data() + v.size()) return i;
  if (v == "true" || v == "false") return v == "true";
  return v;
}

std::string axis_text(const nlohmann::ordered_json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_boolean()) return j.get<bool>() ? "true" : "false";
  return j.dump();
}

sweep_row base_row(const sweep_cell& c, double wall_s) {
  sweep_row r;
  r.cell = c.index;
  r.key = c.key;
  r.backend = c.backend;
  r.values = c.values;
  r.wall_s = wall_s;
  r.scenario = c.effective;
  return r;
}

}  // namespace

sweep_row make_row(const sweep_cell& c, const run_result& res, double wall_s) {
  sweep_row r = base_row(c, wall_s);
  r.verdict = res.ok() ? "OK" : "FAIL";
  r.makespan_s = res.wall_s;
  r.msgs_per_s = res.msgs_per_s();
  r.messages = res.messages;
  for (const auto& w : res.per_worker) {
    r.steals += w.steals;
    r.donations += w.donations;
    r.migrations += w.migrations;
    r.parks += w.parks;
  }
  if (!res.errors.empty()) r.error = res.errors.front();
  return r;
}

sweep_row make_row(const sweep_cell& c, const sim_result& res, double wall_s) {
  sweep_row r = make_row(c, res.run, wall_s);
  if (!res.ok()) r.verdict = "FAIL";
  char h[20];
  std::snprintf(h, sizeof h, "%016llx", static_cast<unsigned long long>(res.event_hash));
  r.event_hash = h;
  return r;
}

sweep_row error_row(const sweep_cell& c, const std::string& error, double wall_s) {
  sweep_row r = base_row(c, wall_s);
  r.verdict = "ERROR";
  r.error = error;
  return r;
}

std::string axis_field(const std::string& axis) { return axis == "scenario" ? "scenario_axis" : axis; }

std::vector<std::string> scenario_columns(const sweep_spec& spec) {
  const bool sim = std::find(spec.backends.begin(), spec.backends.end(), "sim") != spec.backends.end();
  std::vector<std::string> columns;
  for (auto& [from, start] : start_scenarios(spec))  // with a scenario axis: every setting any of them has
    for (auto& [name, v] : leaves(effective_scenario(*start, sim ? &spec.sim : nullptr)))
      if (std::none_of(spec.axes.begin(), spec.axes.end(), [&](const sweep_axis& a) { return a.name == name; }) &&
          std::find(columns.begin(), columns.end(), name) == columns.end())
        columns.push_back(name);
  return columns;
}

std::string csv_header(const sweep_spec& spec) {
  std::string h = "cell,backend";
  for (const auto& a : spec.axes) h += "," + csv_field(a.name);
  for (const auto& c : scenario_columns(spec)) h += "," + csv_field(c);
  return h + ",verdict,makespan_s,msgs_per_s,messages,steals,donations,migrations,parks,event_hash,error,wall_s";
}

std::string csv_line(const sweep_row& r, const std::vector<std::string>& columns) {
  std::string l = std::to_string(r.cell) + "," + r.backend;
  for (const auto& v : r.values) l += "," + csv_field(v);
  std::map<std::string, std::string> setting;
  for (auto& [name, v] : leaves(r.scenario)) setting.emplace(name, leaf_text(v));
  for (const auto& c : columns) {
    auto it = setting.find(c);
    l += "," + (it == setting.end() ? std::string() : csv_field(it->second));
  }
  l += "," + r.verdict + "," + number(r.makespan_s) + "," + number(r.msgs_per_s) + "," + std::to_string(r.messages) +
       "," + std::to_string(r.steals) + "," + std::to_string(r.donations) + "," + std::to_string(r.migrations) + "," +
       std::to_string(r.parks) + "," + r.event_hash + "," + csv_field(r.error) + "," + number(r.wall_s);
  return l;
}

nlohmann::ordered_json row_json(const sweep_spec& spec, const sweep_row& r) {
  nlohmann::ordered_json j;
  j["cell"] = r.cell;
  j["key"] = r.key;
  j["backend"] = r.backend;
  for (std::size_t i = 0; i < spec.axes.size() && i < r.values.size(); ++i)
    j[axis_field(spec.axes[i].name)] = axis_json(r.values[i]);
  j["verdict"] = r.verdict;
  j["makespan_s"] = r.makespan_s;
  j["msgs_per_s"] = r.msgs_per_s;
  j["messages"] = r.messages;
  j["steals"] = r.steals;
  j["donations"] = r.donations;
  j["migrations"] = r.migrations;
  j["parks"] = r.parks;
  j["event_hash"] = r.event_hash;
  j["error"] = r.error;
  j["wall_s"] = r.wall_s;
  j["scenario"] = r.scenario;
  return j;
}

sweep_row row_from_json(const sweep_spec& spec, const nlohmann::ordered_json& j) {
  try {
    sweep_row r;
    r.cell = j.at("cell").get<std::size_t>();
    r.key = j.at("key").get<std::string>();
    r.backend = j.at("backend").get<std::string>();
    for (const auto& a : spec.axes)
      r.values.push_back(j.contains(axis_field(a.name)) ? axis_text(j.at(axis_field(a.name))) : "");
    r.verdict = j.at("verdict").get<std::string>();
    r.makespan_s = j.at("makespan_s").get<double>();
    r.msgs_per_s = j.at("msgs_per_s").get<double>();
    r.messages = j.at("messages").get<std::uint64_t>();
    r.steals = j.at("steals").get<std::uint64_t>();
    r.donations = j.at("donations").get<std::uint64_t>();
    r.migrations = j.at("migrations").get<std::uint64_t>();
    r.parks = j.at("parks").get<std::uint64_t>();
    r.event_hash = j.at("event_hash").get<std::string>();
    r.error = j.at("error").get<std::string>();
    r.wall_s = j.at("wall_s").get<double>();
    if (j.contains("scenario")) r.scenario = j.at("scenario");
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not a sweep row: ") + e.what());
  }
}

}  // namespace twinsched
