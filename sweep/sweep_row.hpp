// One cell's result: every axis value, the complete scenario it ran and what the run measured, as a CSV line and as a JSON object.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/run_result.hpp"
#include "sweep/sweep_spec.hpp"

namespace twinsched {

struct sweep_row {
  std::size_t cell = 0;
  std::string key, backend;
  std::vector<std::string> values;  ///< one per axis, as in the spec
  std::string verdict = "ERROR";    ///< OK, FAIL (the run's verdict failed) or ERROR (it did not run: see error)
  double makespan_s = 0;            ///< workers' start to quiescence (simulated seconds for sim)
  double msgs_per_s = 0;
  std::uint64_t messages = 0, steals = 0, donations = 0, migrations = 0, parks = 0;
  std::string event_hash;  ///< sim only: 16 hex digits
  std::string error;       ///< the first error, if any
  double wall_s = 0;       ///< real seconds the cell took (differs from run to run; the last column)
  nlohmann::ordered_json scenario;  ///< the cell's effective scenario (sweep_cell::effective)

  /// A row counts as done for --resume unless it is ERROR (a crash or a lost task: run it again).
  bool done() const { return verdict != "ERROR"; }
};

/// The row of `c` from its run's result (verdict from run_result::ok()).
sweep_row make_row(const sweep_cell& c, const run_result& r, double wall_s);
/// The row of `c` from a simulation (adds the event hash; aborted runs are FAIL).
sweep_row make_row(const sweep_cell& c, const sim_result& r, double wall_s);
/// The row of a cell that did not run.
sweep_row error_row(const sweep_cell& c, const std::string& error, double wall_s);

/// An axis's field in a JSON row: its name, but "scenario_axis" for the scenario axis, since
/// "scenario" holds the complete scenario the cell ran.
std::string axis_field(const std::string& axis);
/// The CSV's columns for the effective scenario: its leaves by dotted name ("workload.tokens",
/// "scheduler.idle.strategy", "sim.cores"), those named like an axis left out (the axis's
/// column holds that value); with a scenario axis, the leaves of every one of its scenarios.
std::vector<std::string> scenario_columns(const sweep_spec& spec);
/// "cell,backend,<axes>,<scenario columns>,verdict,makespan_s,msgs_per_s,messages,steals,donations,migrations,parks,event_hash,error,wall_s".
std::string csv_header(const sweep_spec& spec);
/// The row under csv_header: `columns` from scenario_columns (a setting the row lacks is empty).
std::string csv_line(const sweep_row& r, const std::vector<std::string>& columns);
/// One JSON object: cell, key, backend, each axis by axis_field (numbers as numbers), the results,
/// then "scenario": the effective scenario, nested as in a scenario file.
nlohmann::ordered_json row_json(const sweep_spec& spec, const sweep_row& r);
/// Reads a row back; `values` from the axes of `spec`. Throws std::runtime_error for a malformed row.
sweep_row row_from_json(const sweep_spec& spec, const nlohmann::ordered_json& j);

}  // namespace twinsched
