// Appending sweep rows to PREFIX.csv and PREFIX.jsonl, and reading them back for --resume.
#include "sweep/result_files.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "scenarios/scenario_loader.hpp"

namespace twinsched {
namespace {

std::FILE* open_or_throw(const std::string& path, const char* how) {
  std::FILE* f = std::fopen(path.c_str(), how);
  if (!f) throw scenario_error(path, 0, 0, std::string("cannot write results (") + std::strerror(errno) + ")");
  return f;
}

/// True if the file exists, is not empty and does not end in a newline (an interrupted write).
bool ends_mid_line(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in || in.tellg() <= 0) return false;
  in.seekg(-1, std::ios::end);
  char c = 0;
  in.get(c);
  return c != '\n';
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string l;
  std::getline(in, l);
  return l;
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
      sweep_row r = row_from_json(spec, nlohmann::json::parse(line));
      rows[r.key] = std::move(r);
    } catch (const std::exception&) {
      ++bad;
    }
  }
  if (skipped) *skipped = bad;
  return rows;
}

result_files::result_files(const sweep_spec& spec, const std::string& prefix, mode m)
    : spec_(spec), csv_path_(prefix + ".csv"), jsonl_path_(prefix + ".jsonl") {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool csv_exists = fs::exists(csv_path_, ec), jsonl_exists = fs::exists(jsonl_path_, ec);
  if (m == mode::create && (csv_exists || jsonl_exists))
    throw scenario_error(jsonl_exists ? jsonl_path_ : csv_path_, 0, 0,
                         "already exists: --resume continues that sweep, --overwrite starts it anew");
  const std::string header = csv_header(spec);
  if (m == mode::resume) {
    if (csv_exists && !first_line(csv_path_).empty() && first_line(csv_path_) != header)
      throw scenario_error(csv_path_, 1, 1, "its columns are not this sweep's (were the axes changed?): cannot resume it");
    rows_ = read_rows(spec, jsonl_path_);
  }
  const bool fresh = m != mode::resume;
  const bool csv_glue = !fresh && ends_mid_line(csv_path_), jsonl_glue = !fresh && ends_mid_line(jsonl_path_);
  csv_ = open_or_throw(csv_path_, fresh ? "w" : "a");
  jsonl_ = open_or_throw(jsonl_path_, fresh ? "w" : "a");
  if (csv_glue) std::fputc('\n', csv_);
  if (jsonl_glue) std::fputc('\n', jsonl_);
  if (fresh || !csv_exists || first_line(csv_path_).empty()) std::fprintf(csv_, "%s\n", header.c_str());
  std::fflush(csv_);
  std::fflush(jsonl_);
}

result_files::~result_files() {
  if (csv_) std::fclose(csv_);
  if (jsonl_) std::fclose(jsonl_);
}

void result_files::append(const sweep_row& r) {
  std::fprintf(jsonl_, "%s\n", row_json(spec_, r).dump().c_str());
  std::fflush(jsonl_);
  std::fprintf(csv_, "%s\n", csv_line(r).c_str());
  std::fflush(csv_);
  rows_[r.key] = r;
}

}  // namespace twinsched
