// A sweep file (TOML): a base scenario, the axes to vary and the backends; expanded into one cell per combination.
//
//   scenario = "../scenarios/forward.toml"   # relative to the sweep file; omitted: the built-in forward scenario
//   backend = "sim"                          # sim | real | both
//   [axes]                                   # every combination of the values is one cell
//   policy = ["stealing", "sharing"]
//   cores = [1, 2, 4]
//   seed = [1, 2]
//   scenario = ["savina/count", "pi.toml"]  # several scenarios (then no scenario key above)
//   workload.hops = [100, 1000]              # any workload parameter
//   [sim]
//   interleave = "coarse"
//   time_limit = 60
//
// Errors are one line, "FILE:LINE:COL: message" (scenario_error), like scenario files.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/config.hpp"
#include "sim/run_sim.hpp"

namespace twinsched {

/// One axis: its name ("policy", "cores", "workload.hops") and its values as text, in order.
struct sweep_axis {
  std::string name;
  std::vector<std::string> values;
  std::uint32_t line = 0, column = 0;  ///< where the axis is written (0: the command line)
};

struct sweep_spec {
  std::string name;    ///< the sweep's name (default: the file's stem); names the result files
  std::string source;  ///< the sweep file
  scenario base;       ///< the base scenario every cell starts from
  std::vector<std::string> backends;  ///< "sim", "real" (both: sim first)
  std::vector<sweep_axis> axes;       ///< in the file's order; --axis replaces or appends
  std::vector<std::string> params;    ///< the --param assignments applied, as given
  sim_options sim;                    ///< [sim]: interleave, time limit (cores and machine come from the axes)
  std::uint32_t axes_line = 0, axes_column = 0;  ///< where [axes] is, for errors about combinations
  /// The scenario axis's values, loaded (load_axis_scenario), by the value as written; each
  /// cell starts from its own instead of `base`. --param applies to each of them.
  std::map<std::string, scenario> axis_scenarios;
  /// A cell that cannot run (donation on a workload without groups) is left out, not refused.
  bool skip_impossible = false;
};

/// A cell that could not run, left out of a grid with skip_impossible.
struct skipped_cell {
  std::string backend, key, reason;
  std::vector<std::string> values;  ///< one per sweep_spec::axes
};

/// One combination of axis values on one backend.
struct sweep_cell {
  std::size_t index = 0;            ///< position in the full grid (stable for a given spec)
  std::string backend;              ///< "sim" | "real"
  std::vector<std::string> values;  ///< one per sweep_spec::axes
  std::string key;                  ///< "backend=sim policy=stealing cores=4": identifies the cell in result files
  scenario s;                       ///< the scenario with the values applied, validated
  sim_options o;                    ///< cores and machine for a sim cell
  nlohmann::ordered_json effective;  ///< every setting the cell runs with (effective_scenario.hpp); its row records it
};

/// The axes a sweep may vary besides workload.<param>.
const std::vector<std::string>& sweep_axis_names();

/// Loads and checks a sweep file: every axis name and value (throws scenario_error at the value).
sweep_spec load_sweep_file(const std::string& path);
sweep_spec load_sweep_text(std::string_view text, const std::string& source_name);

/// "--axis NAME=V1,V2": replaces the axis NAME, or adds it; errors name "--axis ...".
void apply_axis_override(sweep_spec& spec, std::string_view assignment);

/// "--param KEY=VALUE": sets the workload parameter KEY for every cell. Where the sweep file
/// fixes it (workload.KEY with a single value), the value replaces that one, so cell keys and
/// rows show it; otherwise it goes into the base scenario. A KEY that is an axis (several
/// values, or given by --axis) is refused: scenario_error naming the axis. Apply --axis first.
void apply_param(sweep_spec& spec, std::string_view assignment);

/// Every cell, backends outermost, then the axes in order (the last varies fastest). Each
/// cell's scenario is validated; an impossible combination throws scenario_error at [axes],
/// or with spec.skip_impossible is left out (and added to `*skipped`, if given): the cells
/// that remain keep their index in the full grid.
std::vector<sweep_cell> expand(const sweep_spec& spec, std::vector<skipped_cell>* skipped = nullptr);

/// A scenario axis's value: a stock name ("savina/count", "pingpong") as `twinsched run`
/// resolves it (scenario_loader.hpp load_scenario), or a path (ends in .toml, or starts with
/// '.' or '/'), relative to `folder` (the sweep file's; empty: the working directory).
/// Throws scenario_error.
scenario load_axis_scenario(const std::string& value, const std::string& folder);

/// The scenarios the cells start from, by the scenario axis's value: the axis's (in its
/// order), or {"", base} without one.
std::vector<std::pair<std::string, const scenario*>> start_scenarios(const sweep_spec& spec);

/// Applies one axis value to a scenario and simulation options; throws std::invalid_argument
/// with a message for a bad value ("unknown policy 'x'; valid: ..."). Not for the scenario
/// axis, whose value replaces the whole scenario (expand starts each cell from it).
void apply_axis_value(scenario& s, sim_options& o, const std::string& axis, const std::string& value);

}  // namespace twinsched
