// A sweep's result files, PREFIX.csv and PREFIX.jsonl: one row appended (and flushed) as each cell ends.
//
// The JSON lines file is the record --resume and gathering read; the CSV holds the same rows
// for spreadsheets. A row is written to the JSON lines first, so a sweep interrupted between
// the two writes reruns nothing and at worst lacks that one CSV line.
#pragma once
#include <cstdio>
#include <map>
#include <string>

#include "sweep/sweep_row.hpp"

namespace twinsched {

/// The rows of a JSON lines file, the last one per cell key; lines that do not parse (a line
/// cut short by an interrupted write) are skipped and counted in `*skipped`. Missing file: empty.
std::map<std::string, sweep_row> read_rows(const sweep_spec& spec, const std::string& jsonl_path,
                                           std::size_t* skipped = nullptr);

class result_files {
 public:
  enum class mode { create, resume, overwrite };
  /// create: fails (scenario_error, exit 2) if either file exists; resume: reads the rows
  /// already there and appends (the CSV header must match the sweep's); overwrite: starts both anew.
  result_files(const sweep_spec& spec, const std::string& prefix, mode m);
  ~result_files();
  result_files(const result_files&) = delete;
  result_files& operator=(const result_files&) = delete;

  /// Appends the row to both files and flushes them.
  void append(const sweep_row& r);
  /// The rows found when the files were opened (resume), then every appended one; last per key.
  const std::map<std::string, sweep_row>& rows() const { return rows_; }
  const std::string& csv_path() const { return csv_path_; }
  const std::string& jsonl_path() const { return jsonl_path_; }

 private:
  const sweep_spec& spec_;
  std::string csv_path_, jsonl_path_;
  std::FILE *csv_ = nullptr, *jsonl_ = nullptr;
  std::map<std::string, sweep_row> rows_;
};

}  // namespace twinsched
