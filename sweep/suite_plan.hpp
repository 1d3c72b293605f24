// A suite: the benchmarks of a stock scenario folder (scenarios/NAME/, e.g. savina) or of any folder of
// scenario files, and the grid `twinsched suite` runs over them: a sweep per backend whose scenario axis
// is the benchmarks, crossed with every policy that applies, at several worker counts on real cores and
// core counts in simulation.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sweep/sweep_spec.hpp"

namespace twinsched {

/// What `twinsched suite` is asked to run (its flags).
struct suite_request {
  std::string suite = "savina";          ///< a stock suite's name, or a folder's path (it has a '/')
  std::vector<std::string> only;         ///< benchmarks by name (the file's stem); empty: all
  std::vector<std::string> policies;     ///< empty: every policy, each where it applies
  std::vector<std::uint32_t> workers{1, 2}, cores{1, 2, 16};  ///< real cells' workers, sim cells' cores
  std::string backend = "both";          ///< real | sim | both
  std::vector<std::string> sizes;        ///< files of test sizes (tests/savina/*.cases): --param overrides per benchmark
  bool quick = false;                    ///< sizes from the source tree's tests/NAME/*.cases
  double time_limit_s = 600;             ///< simulated seconds before a sim cell counts as hung
  unsigned jobs = 1;                     ///< simulations at once
  bool json = false;                     ///< print the rows as JSON instead of the table
  std::string report;                    ///< an HTML page to write; empty: none
};

/// One benchmark: its name (the scenario file's stem) and the scenario axis's value that loads it
/// ("savina/count" for a stock suite, the file's path for a folder).
struct suite_benchmark {
  std::string name, scenario;
};

struct suite_plan {
  std::string name, folder;                ///< the suite as given, and its folder
  std::vector<suite_benchmark> benchmarks;  ///< in the folder's (sorted) order
  std::vector<std::string> policies;        ///< asked for, in the registry's order
  std::vector<sweep_spec> specs;            ///< one per backend: real first, then sim
  std::vector<sweep_cell> cells;            ///< every spec's cells; index: the position here
  std::vector<skipped_cell> skipped;        ///< cells that cannot run (donation without groups), left out
  std::map<std::string, std::vector<std::string>> sizes;  ///< --param overrides by benchmark scenario (read_sizes)
};

/// The folder of suite `name`: a path when it contains a '/' (or is "." or ".."), else
/// stock_scenario_folder()/name. Throws scenario_error naming the stock suites.
std::string suite_folder(const std::string& name);

/// The stock suites: the folders of stock_scenario_folder() but sweeps/.
std::vector<std::string> stock_suite_names();

/// The benchmarks of the suite in `folder` (its *.toml files, by stem), or those `only` names, in
/// the folder's order. Throws scenario_error for a name that is not there ("--only: no benchmark
/// 'x' in savina; known: ..."), or for a folder without scenario files.
std::vector<suite_benchmark> suite_benchmarks(const std::string& name, const std::string& folder,
                                              const std::vector<std::string>& only);

/// The --param overrides per benchmark scenario (the scenario axis's value) in files of test
/// sizes: lines `SCENARIO | POLICIES | --param K=V ...` (tests/savina/*.cases, whose driver
/// reads the same lines), '#' lines and blank ones aside. SCENARIO matches a benchmark by its
/// value or by its name (the part after the last '/'); the POLICIES column is not read (the suite
/// runs each policy where it applies). Lines for other benchmarks are ignored. Throws
/// scenario_error at FILE:LINE for a line it cannot read.
std::map<std::string, std::vector<std::string>> read_sizes(const std::vector<std::string>& files,
                                                           const std::vector<suite_benchmark>& benchmarks);

/// The files --quick reads for a stock suite: tests/NAME/*.cases beside the stock scenario folder
/// (the source tree's; an installed twinsched has none). Throws scenario_error when there are none.
std::vector<std::string> quick_size_files(const std::string& name);

/// The grid: checks every flag and loads every benchmark, so each error (scenario_error) comes
/// before any cell runs.
suite_plan plan_suite(const suite_request& r);

/// "real 2w" or "sim 16c": a column of the suite's table.
std::string suite_config(const std::string& backend, const std::string& count);

}  // namespace twinsched
