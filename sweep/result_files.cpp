// Appending sweep rows to PREFIX.csv and PREFIX.jsonl, the sweep's record beside them, and reading them back for --resume.
#include "sweep/result_files.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "scenarios/scenario_loader.hpp"
#include "scenarios/toml_reader.hpp"
#include "sweep/effective_scenario.hpp"
#include "traces/output_file.hpp"

namespace twinsched {
namespace {

std::FILE* open_or_throw(const std::string& path, const char* how) {
  std::FILE* f = std::fopen(path.c_str(), how);
  if (!f) throw scenario_error(path, 0, 0, std::string("cannot write results (") + std::strerror(errno) + ")");
  return f;
}

std::string whole_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> strings(const nlohmann::ordered_json& j) {
  std::vector<std::string> v;
  if (j.is_array())
    for (const auto& x : j) v.push_back(x.is_string() ? x.get<std::string>() : x.dump());
  return v;
}

std::string comma_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

/// The record of the results already there; throws when it is missing or not a record.
nlohmann::ordered_json read_record(const std::string& path, const std::string& rows_path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw scenario_error(path, 0, 0, "missing, so nothing says what the results in " + rows_path +
                                         " ran with: cannot resume them (--overwrite starts anew)");
  try {
    nlohmann::ordered_json j = nlohmann::ordered_json::parse(whole_text(path));
    if (j.is_object() && j.contains("axes") && j.contains("base")) return j;
  } catch (const nlohmann::json::exception&) {
  }
  throw scenario_error(path, 0, 0, "not a sweep record: cannot resume the results beside it (--overwrite starts anew)");
}

}  // namespace

std::map<std::string, sweep_row> read_rows(const sweep_spec& spec, const std::string& jsonl_path, std::size_t* skipped) {
  std::map<std::string, sweep_row> rows;
  std::ifstream in(jsonl_path);
  std::string line;
  std::size_t bad = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      sweep_row r = row_from_json(spec, nlohmann::ordered_json::parse(line));
      rows[r.key] = std::move(r);
    } catch (const std::exception&) {
      ++bad;
    }
  }
  if (skipped) *skipped = bad;
  return rows;
}

nlohmann::ordered_json sweep_record(const sweep_spec& spec) {
  const bool sim = std::find(spec.backends.begin(), spec.backends.end(), "sim") != spec.backends.end();
  nlohmann::ordered_json j;
  j["sweep"] = spec.name;
  j["file"] = spec.source;
  j["params"] = spec.params;
  j["backends"] = spec.backends;
  j["axes"] = nlohmann::ordered_json::object();
  for (const auto& a : spec.axes) j["axes"][a.name] = a.values;
  j["base"] = effective_scenario(spec.base, sim ? &spec.sim : nullptr);
  if (!spec.axis_scenarios.empty()) {  // what each of the scenario axis's values ran with (--param included)
    j["scenarios"] = nlohmann::ordered_json::object();
    for (auto& [from, start] : start_scenarios(spec)) j["scenarios"][from] = effective_scenario(*start, sim ? &spec.sim : nullptr);
  }
  return j;
}

std::vector<std::string> record_differences(const nlohmann::ordered_json& before, const nlohmann::ordered_json& now) {
  std::vector<std::string> d;
  const auto field = [](const nlohmann::ordered_json& j, const char* k) {
    return j.is_object() && j.contains(k) ? j.at(k) : nlohmann::ordered_json();
  };
  const auto old_backends = strings(field(before, "backends")), new_backends = strings(field(now, "backends"));
  if (old_backends != new_backends)
    d.push_back("backend was " + comma_list(old_backends) + ", is " + comma_list(new_backends));
  const nlohmann::ordered_json old_axes = field(before, "axes"), new_axes = field(now, "axes");
  std::vector<std::string> old_names, new_names;
  if (old_axes.is_object())
    for (auto it = old_axes.begin(); it != old_axes.end(); ++it) old_names.push_back(it.key());
  if (new_axes.is_object())
    for (auto it = new_axes.begin(); it != new_axes.end(); ++it) new_names.push_back(it.key());
  for (const auto& n : new_names) {
    const std::string values = comma_list(strings(new_axes.at(n)));
    if (std::find(old_names.begin(), old_names.end(), n) == old_names.end())
      d.push_back("axis " + n + " is new (" + values + ")");
    else if (const std::string was = comma_list(strings(old_axes.at(n))); was != values)
      d.push_back("axis " + n + " was " + was + ", is " + values);
  }
  for (const auto& n : old_names)
    if (std::find(new_names.begin(), new_names.end(), n) == new_names.end())
      d.push_back("axis " + n + " is gone (was " + comma_list(strings(old_axes.at(n))) + ")");
  if (d.empty() && old_names != new_names)  // the same axes in another order number the cells differently
    d.push_back("the axes' order was " + detail::joined(old_names) + ", is " + detail::joined(new_names));
  for (auto& x : differences(field(before, "base"), field(now, "base"))) d.push_back(std::move(x));
  const nlohmann::ordered_json old_scenarios = field(before, "scenarios"), new_scenarios = field(now, "scenarios");
  if (old_scenarios.is_object() && new_scenarios.is_object())  // a value new or gone is an axis difference above
    for (auto it = new_scenarios.begin(); it != new_scenarios.end(); ++it)
      if (old_scenarios.contains(it.key()))
        for (auto& x : differences(old_scenarios.at(it.key()), it.value())) d.push_back("scenario " + it.key() + ": " + x);
  return d;
}

result_files::result_files(const sweep_spec& spec, const std::string& prefix, mode m)
    : spec_(spec),
      csv_path_(prefix + ".csv"),
      jsonl_path_(prefix + ".jsonl"),
      record_path_(prefix + ".sweep.json"),
      columns_(scenario_columns(spec)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool csv_exists = fs::exists(csv_path_, ec), jsonl_exists = fs::exists(jsonl_path_, ec);
  if (m == mode::create && (csv_exists || jsonl_exists))
    throw scenario_error(jsonl_exists ? jsonl_path_ : csv_path_, 0, 0,
                         "already exists: --resume continues that sweep, --overwrite starts it anew");
  const nlohmann::ordered_json record = sweep_record(spec);
  std::string csv_text = csv_header(spec) + "\n";
  if (m == mode::resume && (csv_exists || jsonl_exists)) {
    const auto diff = record_differences(read_record(record_path_, jsonl_path_), record);
    if (!diff.empty()) {
      std::string what;
      for (const auto& x : diff) what += (what.empty() ? "" : "; ") + x;
      throw scenario_error(record_path_, 0, 0,
                           "the results beside it are another sweep's (" + what +
                               "): cannot resume them (--overwrite starts anew, -o names another prefix)");
    }
    // Every complete row is kept; a last line cut short (no newline, or not a row) is dropped
    // so that its cell runs again; a damaged row before it is not guessed at.
    const std::string text = whole_text(jsonl_path_);
    std::string jsonl_text;
    std::size_t line_no = 0;
    for (std::size_t at = 0; at < text.size();) {
      const std::size_t nl = text.find('\n', at);
      const bool complete = nl != std::string::npos;
      const std::string line = text.substr(at, complete ? nl - at : std::string::npos);
      at = complete ? nl + 1 : text.size();
      ++line_no;
      if (line.empty()) continue;
      try {
        if (!complete) throw std::runtime_error("no newline at its end");
        sweep_row r = row_from_json(spec, nlohmann::ordered_json::parse(line));
        jsonl_text += line + "\n";
        csv_text += csv_line(r, columns_) + "\n";
        rows_[r.key] = std::move(r);
      } catch (const std::exception& e) {
        if (text.find_first_not_of('\n', at) != std::string::npos)
          throw scenario_error(jsonl_path_, std::uint32_t(line_no), 1,
                               std::string("not a sweep row (") + e.what() +
                                   "); --resume drops only a last row cut short: remove the line or --overwrite");
        dropped_ = 1;
      }
    }
    if (dropped_) files::write_whole(jsonl_path_, jsonl_text);
  } else {
    files::write_whole(record_path_, record.dump(2) + "\n");  // first: rows never lie beside no record
    files::write_whole(jsonl_path_, "");
  }
  files::write_whole(csv_path_, csv_text);  // on resume: the rows of the JSON lines, in their order
  csv_ = open_or_throw(csv_path_, "a");
  jsonl_ = open_or_throw(jsonl_path_, "a");
}

result_files::~result_files() {
  if (csv_) std::fclose(csv_);
  if (jsonl_) std::fclose(jsonl_);
}

void result_files::append(const sweep_row& r) {
  std::fprintf(jsonl_, "%s\n", row_json(spec_, r).dump().c_str());
  std::fflush(jsonl_);
  std::fprintf(csv_, "%s\n", csv_line(r, columns_).c_str());
  std::fflush(csv_);
  rows_[r.key] = r;
}

void check_rows(const std::vector<sweep_cell>& cells, const std::map<std::string, sweep_row>& rows, const std::string& file) {
  for (const auto& cell : cells) {
    auto it = rows.find(cell.key);
    if (it == rows.end()) continue;
    std::vector<std::string> d = differences(it->second.scenario, cell.effective);
    if (it->second.cell != cell.index)
      d.insert(d.begin(), "it was cell " + std::to_string(it->second.cell) + ", is cell " + std::to_string(cell.index));
    if (!d.empty()) {
      const std::size_t more = d.size() - 1;
      throw scenario_error(file, 0, 0, "the row of " + cell.key + " is another sweep's (" + d.front() +
                                           (more ? "; and " + std::to_string(more) + " more difference" + (more == 1 ? "" : "s") : "") +
                                           "): cannot resume it (--overwrite starts anew)");
    }
  }
}

std::vector<const sweep_cell*> missing_cells(const std::vector<sweep_cell>& cells, const std::map<std::string, sweep_row>& rows) {
  std::vector<const sweep_cell*> v;
  for (const auto& cell : cells) {
    auto it = rows.find(cell.key);
    if (it == rows.end() || !it->second.done()) v.push_back(&cell);
  }
  return v;
}

}  // namespace twinsched
