// A whole sweep: the grid, its slice, the checks before any cell runs, then the cells here or on Slurm.
#include "sweep/sweep_run.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <ostream>

#include "scenarios/scenario_loader.hpp"
#include "sweep/effective_scenario.hpp"
#include "sweep/local_runner.hpp"
#include "sweep/slurm.hpp"
#include "sweep/slurm_run.hpp"
#include "sweep/sweep_summary.hpp"
#include "traces/output_file.hpp"

namespace twinsched {
namespace {

/// The settings every cell shares, "k=v k=v ...", for a dry run.
std::string shared_settings(const std::vector<sweep_cell>& cells) {
  if (cells.empty()) return "";
  std::vector<std::pair<std::string, nlohmann::ordered_json>> common = leaves(cells.front().effective);
  for (const auto& cell : cells) {
    std::map<std::string, nlohmann::ordered_json> mine;
    for (auto& [k, v] : leaves(cell.effective)) mine.emplace(k, v);
    std::erase_if(common, [&](const auto& kv) {
      auto it = mine.find(kv.first);
      return it == mine.end() || it->second != kv.second;
    });
  }
  std::string s;
  for (auto& [k, v] : common) s += (s.empty() ? "" : " ") + k + "=" + leaf_text(v);
  return s;
}

/// Runs the cells without a done row here, appending each row as it ends.
int run_here(const sweep_request& r, const sweep_spec& spec, const std::vector<sweep_cell>& cells, result_files& results,
             sweep_display& d, std::ostream& out, std::ostream& err) {
  auto todo = missing_cells(cells, results.rows());
  const std::size_t skipped = cells.size() - todo.size();
  if (skipped) err << "sweep: " << plural(skipped, "cell") << " already done in " << results.jsonl_path() << ", skipped\n";
  cell_tally t;
  t.total = todo.size();
  d.start();
  sweep_run_hooks hooks;
  hooks.on_row = [&](const sweep_row& row) {
    results.append(row);
    t.count(row);
    if (row.verdict != "OK") {
      const std::string why = row.error.empty() ? "the run's verdict failed" : row.error.substr(0, row.error.find('\n'));
      d.note("sweep: cell " + std::to_string(row.cell) + " (" + row.key + "): " + row.verdict + ": " + why);
    }
    d.update(t.status(d));
  };
  hooks.tick = [&] { d.update(t.status(d)); };
  run_cells(todo, r.jobs, hooks);
  d.finish();
  const double secs = d.elapsed_s();
  std::string ran = "ran " + std::to_string(todo.size()) + " in " + d.duration_text(secs) +
                    (secs > 0 && !todo.empty()
                         ? " (" + fixed_rate(double(todo.size()) / secs) + " cells/s, " + plural(r.jobs, "job") + ")"
                         : "");
  if (skipped) ran += ", " + std::to_string(skipped) + " done before";
  return finish_sweep(r, spec, cells, results, ran, out);
}

}  // namespace

int run_sweep(const sweep_request& r, sweep_display& d, std::ostream& out, std::ostream& err) {
  sweep_spec spec = load_sweep_file(r.file);
  for (const auto& a : r.axes) apply_axis_override(spec, a);
  for (const auto& p : r.params) apply_param(spec, p);  // after --axis: a --param may not name an axis
  std::vector<skipped_cell> skipped;
  std::vector<sweep_cell> cells = expand(spec, &skipped);
  if (!skipped.empty())
    err << "sweep: " << plural(skipped.size(), "cell") << " cannot run, left out (skip_impossible), e.g. "
        << skipped.front().key << ": " << skipped.front().reason << '\n';
  if (!r.heatmap.empty()) {
    const std::string x = r.heatmap.substr(0, r.heatmap.find(',')), y = r.heatmap.substr(r.heatmap.find(',') + 1);
    for (const std::string& a : {x, y})
      if (std::none_of(spec.axes.begin(), spec.axes.end(), [&](const sweep_axis& ax) { return ax.name == a; }))
        throw scenario_error("--heatmap " + r.heatmap, 0, 0, "'" + a + "' is not an axis of this sweep");
  }
  if (r.dry_run) {
    for (const auto& cell : cells) out << cell.index << '\t' << cell.key << '\n';
    out << "every cell: " << shared_settings(cells) << '\n';
    out << "sweep " << spec.name << ": " << plural(cells.size(), "cell") << '\n';
    return 0;
  }
  if (r.slice_t > 1) {
    std::vector<sweep_cell> mine;
    for (auto& cell : cells)
      if (task_of(cell.index, r.slice_t) == r.slice_k) mine.push_back(std::move(cell));
    cells = std::move(mine);
  }
  const std::string prefix = r.out.empty() ? spec.name : r.out;
  files::check_output(prefix, "-o");  // a folder ("results/") would get hidden ".csv" files
  std::vector<std::string> inputs{r.file, spec.base.source};
  for (auto& [from, start] : start_scenarios(spec)) inputs.push_back(start->source);
  for (const char* ext : {".csv", ".jsonl", ".sweep.json"}) files::check_output(prefix + ext, "-o", inputs);
  if (!r.report.empty()) {
    for (const char* ext : {".csv", ".jsonl", ".sweep.json"}) inputs.push_back(prefix + ext);
    files::check_output(r.report, "--report", inputs);
  }
  const auto mode = r.resume || r.gather ? result_files::mode::resume
                    : r.overwrite        ? result_files::mode::overwrite
                                         : result_files::mode::create;
  result_files results(spec, prefix, mode);
  if (results.dropped())
    err << "sweep: the last row of " << results.jsonl_path() << " was cut short: dropped, its cell runs again\n";
  check_rows(cells, results.rows(), results.jsonl_path());
  if (r.slurm || r.gather) return run_slurm(r, spec, cells, results, prefix, d, out, err);
  return run_here(r, spec, cells, results, d, out, err);
}

}  // namespace twinsched
