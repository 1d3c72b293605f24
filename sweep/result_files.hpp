// A sweep's result files: PREFIX.csv and PREFIX.jsonl, one row appended (and flushed) as each
// cell ends, and PREFIX.sweep.json, the record of what the sweep runs (its grid and base scenario).
//
// The JSON lines file is the record --resume and gathering read. Resuming compares the record
// with the sweep at hand and refuses another grid, --param or scenario; it drops a last row cut
// short by an interrupted write and writes the CSV again from the JSON lines, so the two hold
// the same rows whatever moment the sweep was stopped at.
#pragma once
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "sweep/sweep_row.hpp"

namespace twinsched {

/// The rows of a JSON lines file, the last one per cell key; lines that do not parse (a line
/// cut short by an interrupted write) are skipped and counted in `*skipped`. Missing file: empty.
std::map<std::string, sweep_row> read_rows(const sweep_spec& spec, const std::string& jsonl_path,
                                           std::size_t* skipped = nullptr);

/// What the sweep runs, as PREFIX.sweep.json holds it: name, file and --param values (for
/// people), backends, axes and the base scenario's effective settings (compared on resume).
nlohmann::ordered_json sweep_record(const sweep_spec& spec);
/// What differs between two records ("axis cores was 1,2, is 1,2,4", "workload.tokens was 50,
/// is 10"); empty when they describe the same grid of the same runs.
std::vector<std::string> record_differences(const nlohmann::ordered_json& before, const nlohmann::ordered_json& now);

/// Refuses rows that ran something other than their cell does now (results of another sweep):
/// scenario_error at `file`, naming the first difference.
void check_rows(const std::vector<sweep_cell>& cells, const std::map<std::string, sweep_row>& rows, const std::string& file);
/// The cells without a done row in `rows`, in grid order.
std::vector<const sweep_cell*> missing_cells(const std::vector<sweep_cell>& cells, const std::map<std::string, sweep_row>& rows);

class result_files {
 public:
  enum class mode { create, resume, overwrite };
  /// create: fails (scenario_error, exit 2) if the CSV or JSON lines file exists; overwrite:
  /// starts all three anew; resume: refuses (scenario_error) results whose record is missing,
  /// unreadable or another sweep's, or whose JSON lines hold a damaged row before the last
  /// line; drops a torn last row; keeps the rest and appends.
  result_files(const sweep_spec& spec, const std::string& prefix, mode m);
  ~result_files();
  result_files(const result_files&) = delete;
  result_files& operator=(const result_files&) = delete;

  /// Appends the row to both files and flushes them.
  void append(const sweep_row& r);
  /// The rows found when the files were opened (resume), then every appended one; last per key.
  const std::map<std::string, sweep_row>& rows() const { return rows_; }
  /// Rows dropped when resuming: 1 when the JSON lines file ended in a torn row, else 0.
  std::size_t dropped() const { return dropped_; }
  const std::string& csv_path() const { return csv_path_; }
  const std::string& jsonl_path() const { return jsonl_path_; }
  const std::string& record_path() const { return record_path_; }

 private:
  const sweep_spec& spec_;
  std::string csv_path_, jsonl_path_, record_path_;
  std::vector<std::string> columns_;
  std::FILE *csv_ = nullptr, *jsonl_ = nullptr;
  std::map<std::string, sweep_row> rows_;
  std::size_t dropped_ = 0;
};

}  // namespace twinsched
