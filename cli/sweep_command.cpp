// `twinsched sweep SPEC.toml`: every combination of a sweep file's axes, run locally (--jobs) or as a Slurm job array, results appended per cell.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sweep/effective_scenario.hpp"
#include "sweep/local_runner.hpp"
#include "sweep/result_files.hpp"
#include "sweep/slurm.hpp"
#include "sweep/sweep_report.hpp"
#include "traces/output_file.hpp"

namespace twinsched::cli {
namespace {

namespace fs = std::filesystem;

struct sweep_cli {
  std::string file, out, report, heatmap, slice;
  std::vector<std::string> axes, params, slurm_opts;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  std::size_t tasks = 16;
  bool resume = false, overwrite = false, dry_run = false, slurm = false, no_wait = false, gather = false;
};

std::string plural(std::size_t n, const std::string& what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

/// "K/T" -> (K, T) with K < T; throws std::invalid_argument.
std::pair<std::size_t, std::size_t> parse_slice(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("no '/'");
  const std::size_t t = parse_whole(text.substr(slash + 1), 1, 1'000'000);
  const std::size_t k = parse_whole(text.substr(0, slash), 0, t - 1);
  return {k, t};
}

/// Counters and the progress line of one sweep.
struct tally {
  std::size_t total = 0, done = 0, ok = 0, fail = 0, error = 0;
  std::string status(const progress& p) const {
    const double t = p.elapsed_s(), rate = t > 0 ? double(done) / t : 0;
    std::string s = std::to_string(done) + "/" + std::to_string(total) + " cells, " + std::to_string(fail + error) +
                    " failed, " + fixed_rate(rate) + " cells/s, " + duration_text(t) + " elapsed";
    if (done > 0 && done < total) s += ", ETA " + duration_text(t / double(done) * double(total - done));
    return s;
  }
  void count(const sweep_row& r) {
    ++done;
    (r.verdict == "OK" ? ok : r.verdict == "FAIL" ? fail : error) += 1;
  }
  static std::string fixed_rate(double r) {
    char b[32];
    std::snprintf(b, sizeof b, r < 10 ? "%.2f" : "%.1f", r);
    return b;
  }
};

sweep_spec load_spec(const sweep_cli& c) {
  sweep_spec spec = load_sweep_file(c.file);
  for (const auto& a : c.axes) apply_axis_override(spec, a);
  for (const auto& p : c.params) apply_param(spec, p);  // after --axis: a --param may not name an axis
  return spec;
}

void write_report(const sweep_cli& c, const sweep_spec& spec, const std::map<std::string, sweep_row>& rows) {
  if (c.report.empty()) return;
  sweep_report_options ro;
  if (!c.heatmap.empty()) {
    ro.heat_x = c.heatmap.substr(0, c.heatmap.find(','));
    ro.heat_y = c.heatmap.substr(c.heatmap.find(',') + 1);
  }
  files::output_file f(c.report);
  write_sweep_report(f.stream(), spec, rows, ro);
  f.commit();
  std::cout << "report " << c.report << '\n';
}

/// Refuses rows that ran something other than their cell does now: results of another sweep.
void check_rows(const std::vector<sweep_cell>& cells, const std::map<std::string, sweep_row>& rows,
                const std::string& file) {
  for (const auto& cell : cells) {
    auto it = rows.find(cell.key);
    if (it == rows.end()) continue;
    std::vector<std::string> d = differences(it->second.scenario, cell.effective);
    if (it->second.cell != cell.index)
      d.insert(d.begin(), "it was cell " + std::to_string(it->second.cell) + ", is cell " + std::to_string(cell.index));
    if (!d.empty())
      throw scenario_error(file, 0, 0, "the row of " + cell.key + " is another sweep's (" + d.front() +
                                           (d.size() > 1 ? "; and " + plural(d.size() - 1, "more difference") : "") +
                                           "): cannot resume it (--overwrite starts anew)");
  }
}

/// The settings every cell shares, "k=v k=v ...", for --dry-run.
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

/// Appends the tasks' done rows that the sweep's own files lack; returns how many.
std::size_t gather(const sweep_spec& spec, const std::vector<sweep_cell>& cells, const std::string& dir,
                   result_files& results) {
  std::set<std::string> keys;
  for (const auto& cell : cells) keys.insert(cell.key);
  std::size_t added = 0;
  std::error_code ec;
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".jsonl" && e.path().filename().string().rfind("task-", 0) == 0)
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    auto rows = read_rows(spec, f);
    check_rows(cells, rows, f);
    for (auto& [key, row] : rows) {
      if (!keys.count(key) || !row.done()) continue;
      auto it = results.rows().find(key);
      if (it != results.rows().end() && it->second.done()) continue;
      results.append(row);
      ++added;
    }
  }
  return added;
}

/// Cells without a done row, in grid order.
std::vector<const sweep_cell*> missing_cells(const std::vector<sweep_cell>& cells, const result_files& results) {
  std::vector<const sweep_cell*> v;
  for (const auto& cell : cells) {
    auto it = results.rows().find(cell.key);
    if (it == results.rows().end() || !it->second.done()) v.push_back(&cell);
  }
  return v;
}

int finish(const sweep_cli& c, const sweep_spec& spec, const std::vector<sweep_cell>& cells, result_files& results,
           const std::string& ran) {
  std::size_t ok = 0, fail = 0, error = 0;
  for (const auto& cell : cells) {
    auto it = results.rows().find(cell.key);
    if (it == results.rows().end()) continue;
    (it->second.verdict == "OK" ? ok : it->second.verdict == "FAIL" ? fail : error) += 1;
  }
  const std::size_t missing = cells.size() - ok - fail - error;
  std::cout << "sweep " << spec.name << ": " << plural(cells.size(), "cell") << "; " << ran << "; " << ok << " OK, "
            << fail << " FAIL, " << error << " ERROR" << (missing ? ", " + std::to_string(missing) + " not run" : "")
            << '\n';
  std::cout << "results " << results.csv_path() << ", " << results.jsonl_path() << " (what ran: "
            << results.record_path() << ")\n";
  write_report(c, spec, results.rows());
  return ok == cells.size() ? 0 : 1;
}

int run_slurm(const sweep_cli& c, const sweep_spec& spec, const std::vector<sweep_cell>& cells, result_files& results,
              const std::string& prefix) {
  const std::string dir = fs::absolute(prefix + ".slurm").lexically_normal().string();
  fs::create_directories(dir);
  if (c.overwrite && !c.gather)
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().filename().string().rfind("task-", 0) == 0) fs::remove(e.path());
  std::size_t gathered = gather(spec, cells, dir, results);
  if (gathered) std::cerr << "sweep: gathered " << plural(gathered, "row") << " from " << dir << '\n';
  auto missing = missing_cells(cells, results);
  if (c.gather || missing.empty())
    return finish(c, spec, cells, results, missing.empty() ? "nothing left to run" : "gathered from " + dir);

  slurm_job job;
  job.twinsched = fs::read_symlink("/proc/self/exe").string();
  job.sweep_args.push_back(fs::absolute(c.file).lexically_normal().string());
  for (const auto& a : c.axes) job.sweep_args.push_back("--axis=" + a);
  for (const auto& p : c.params) job.sweep_args.push_back("--param=" + p);
  job.dir = dir;
  job.tasks = std::min(c.tasks, cells.size());
  std::set<std::size_t> array;
  for (const sweep_cell* cell : missing) array.insert(task_of(cell->index, job.tasks));
  job.array.assign(array.begin(), array.end());
  job.jobs = 1;
  job.sbatch_options = c.slurm_opts;
  std::string id;
  try {
    id = submit(job, "twinsched-" + spec.name);
  } catch (const std::runtime_error& e) {
    throw scenario_error("--slurm", 0, 0, e.what());
  }
  std::cout << "sweep " << spec.name << ": submitted Slurm job " << id << " (" << plural(job.array.size(), "array task")
            << " of " << job.tasks << " for " << plural(missing.size(), "cell") << "; script " << dir << "/job.sh)\n"
            << std::flush;
  if (c.no_wait) {
    std::cout << "when it has ended: twinsched sweep " << c.file << " --slurm --gather -o " << prefix
              << " (then --slurm --resume re-submits what failed)\n";
    return 0;
  }
  progress p("sweep", progress::mode_or_lines(false), 1.0, 10.0);
  auto count_done = [&] {
    std::size_t n = 0;
    for (std::size_t k : job.array) {
      std::ifstream f(task_prefix(dir, k) + ".jsonl");
      n += std::size_t(std::count(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>(), '\n'));
    }
    return n;
  };
  wait_for_job(id, [&] {
    p.update("Slurm job " + id + ": " + std::to_string(count_done()) + "/" + std::to_string(missing.size()) +
             " cells, " + p.elapsed_text() + " elapsed");
  });
  p.finish();
  gathered = gather(spec, cells, dir, results);
  const std::string ran = "Slurm job " + id + " ran " + plural(gathered, "cell") + " in " + p.elapsed_text();
  auto still = missing_cells(cells, results);
  if (!still.empty()) {
    std::map<std::size_t, std::size_t> per_task;
    for (const sweep_cell* cell : still) ++per_task[task_of(cell->index, job.tasks)];
    for (auto& [k, n] : per_task)
      std::cerr << "sweep: task " << k << " failed: " << plural(n, "cell") << " missing (log " << dir << "/task-" << k
                << ".log)\n";
    std::cerr << "sweep: re-submit the failed tasks with --slurm --resume\n";
  }
  return finish(c, spec, cells, results, ran);
}

int run(const sweep_cli& c) {
  sweep_spec spec = load_spec(c);
  std::vector<sweep_cell> cells = expand(spec);
  if (!c.heatmap.empty()) {
    const std::string x = c.heatmap.substr(0, c.heatmap.find(',')), y = c.heatmap.substr(c.heatmap.find(',') + 1);
    for (const std::string& a : {x, y})
      if (std::none_of(spec.axes.begin(), spec.axes.end(), [&](const sweep_axis& ax) { return ax.name == a; }))
        throw scenario_error("--heatmap " + c.heatmap, 0, 0, "'" + a + "' is not an axis of this sweep");
  }
  if (c.dry_run) {
    for (const auto& cell : cells) std::cout << cell.index << '\t' << cell.key << '\n';
    std::cout << "every cell: " << shared_settings(cells) << '\n';
    std::cout << "sweep " << spec.name << ": " << plural(cells.size(), "cell") << '\n';
    return 0;
  }
  std::size_t slice_k = 0, slice_t = 1;
  if (!c.slice.empty()) std::tie(slice_k, slice_t) = parse_slice(c.slice);
  if (slice_t > 1) {
    std::vector<sweep_cell> mine;
    for (auto& cell : cells)
      if (task_of(cell.index, slice_t) == slice_k) mine.push_back(std::move(cell));
    cells = std::move(mine);
  }
  const std::string prefix = c.out.empty() ? spec.name : c.out;
  files::check_output(prefix, "-o");  // a folder ("results/") would get hidden ".csv" files
  std::vector<std::string> inputs{c.file, spec.base.source};
  for (const char* ext : {".csv", ".jsonl", ".sweep.json"}) files::check_output(prefix + ext, "-o", inputs);
  if (!c.report.empty()) {
    for (const char* ext : {".csv", ".jsonl", ".sweep.json"}) inputs.push_back(prefix + ext);
    files::check_output(c.report, "--report", inputs);
  }
  const auto mode = c.resume || c.gather ? result_files::mode::resume
                    : c.overwrite        ? result_files::mode::overwrite
                                         : result_files::mode::create;
  result_files results(spec, prefix, mode);
  if (results.dropped())
    std::cerr << "sweep: the last row of " << results.jsonl_path() << " was cut short: dropped, its cell runs again\n";
  check_rows(cells, results.rows(), results.jsonl_path());
  if (c.slurm || c.gather) return run_slurm(c, spec, cells, results, prefix);

  auto todo = missing_cells(cells, results);
  const std::size_t skipped = cells.size() - todo.size();
  if (skipped) std::cerr << "sweep: " << plural(skipped, "cell") << " already done in " << results.jsonl_path() << ", skipped\n";
  tally t;
  t.total = todo.size();
  progress p("sweep", progress::mode_or_lines(false), 1.0, 10.0);
  sweep_run_hooks hooks;
  hooks.on_row = [&](const sweep_row& r) {
    results.append(r);
    t.count(r);
    if (r.verdict != "OK") {
      const std::string why = r.error.empty() ? "the run's verdict failed" : r.error.substr(0, r.error.find('\n'));
      p.print(std::cerr, "sweep: cell " + std::to_string(r.cell) + " (" + r.key + "): " + r.verdict + ": " + why);
    }
    p.update(t.status(p));
  };
  hooks.tick = [&] { p.update(t.status(p)); };
  run_cells(todo, c.jobs, hooks);
  p.finish();
  const double secs = p.elapsed_s();
  std::string ran = "ran " + std::to_string(todo.size()) + " in " + duration_text(secs) +
                    (secs > 0 && !todo.empty() ? " (" + tally::fixed_rate(double(todo.size()) / secs) + " cells/s, " +
                                                     plural(c.jobs, "job") + ")"
                                               : "");
  if (skipped) ran += ", " + std::to_string(skipped) + " done before";
  return finish(c, spec, cells, results, ran);
}

constexpr const char* sweep_footer = R"(A sweep file names a base scenario and the axes to vary; every combination is one cell:
  scenario = "../scenarios/forward.toml"   # relative to the sweep file; omitted: the built-in forward scenario
  backend = "sim"                          # sim | real | both (real cells run one at a time, after the sims)
  [axes]                                   # the last axis varies fastest
  policy = ["stealing", "sharing", "shared-queue"]
  cores = [1, 2, 4, 8]                     # one worker per core unless workers is an axis too
  seed = [1, 2, 3]
  workload.hops = [100, 1000]              # any workload parameter (`twinsched list workloads`)
  [sim]                                    # optional: interleave = "coarse"|"fine", time_limit, quantum_ns
Axes: policy, idle, workers, cores, machine, burst, fifo, steal, seed, workload.<parameter>.
--param KEY=VALUE sets a workload parameter for every cell: it overrides the base scenario and
a value the sweep file fixes (workload.KEY = V, one value; the cells' keys then show the new
value). A KEY that is an axis (several values, or --axis workload.KEY) is refused (exit 2):
change its values with --axis instead. --dry-run lists the cells and the settings they share.
Results: one row per cell appended to PREFIX.csv and PREFIX.jsonl as it ends: every axis value,
the complete scenario the cell ran (JSON: "scenario", nested as in a scenario file; CSV: one
column per setting, e.g. workload.tokens, scheduler.idle.strategy, sim.cores), verdict,
makespan_s, msgs_per_s, messages, steals, donations, migrations, parks, event hash, error,
wall_s. PREFIX.sweep.json records what the sweep runs (axes, backends, base scenario, --param).
An interrupted sweep loses nothing: --resume skips the cells already done (ERROR rows are run
again), drops a last row cut short by the interruption and runs that cell again, and refuses
(exit 2, naming the difference) results of another grid, --param or scenario.
-o PREFIX and --report FILE must lie in existing folders (exit 2 before any cell runs).
Progress: a live line on a terminal, a plain line every 10 s otherwise.
Slurm: --slurm submits the missing cells as a job array (task K runs the cells whose index mod
--tasks is K, into PREFIX.slurm/task-K.*), waits, and gathers the tasks' rows into PREFIX.*;
failed tasks are listed, and --slurm --resume re-submits only them.
Examples:
  twinsched sweep scenarios/sweeps/scaling.toml --jobs 2 --report scaling.html
  twinsched sweep scaling.toml --resume                       continue an interrupted sweep
  twinsched sweep scaling.toml --axis cores=1,2,4 --axis seed=1,2 --param hops=500
  twinsched sweep scaling.toml --dry-run                      list the cells
  twinsched sweep scaling.toml --slurm --slurm-opt=--partition=short --slurm-opt=--time=10
  twinsched sweep scaling.toml --slurm --no-wait && twinsched sweep scaling.toml --slurm --gather
Exit codes: 0 every cell OK, 1 a cell failed or did not run, 2 the sweep file or a flag is invalid.)";

}  // namespace

void add_sweep_command(CLI::App& app, action& chosen) {
  auto c = std::make_shared<sweep_cli>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Run every combination of a sweep file's axes (policies x cores x machines x parameters x seeds), "
               "locally or on Slurm; one result row per cell, resumable.");
  cmd->footer(sweep_footer);
  cmd->add_option("sweep", c->file, "Sweep file (TOML); see below.")->type_name("SPEC.toml")->required();
  cmd->add_option("-o,--out", c->out,
                  "Write the results to PREFIX.csv and PREFIX.jsonl. Default: the sweep's name, here.")
      ->type_name("PREFIX");
  takes_whole(cmd->add_option("-j,--jobs", c->jobs, "Simulations at once (processes). Default: this machine's "
                                                    "hardware threads.")
                  ->type_name("N")
                  ->capture_default_str(),
              1, 1024);
  cmd->add_flag("--resume", c->resume, "Continue PREFIX.*: skip the cells that already have a row (not ERROR); "
                                       "refuses results of another grid or --param.");
  cmd->add_flag("--overwrite", c->overwrite, "Start PREFIX.* anew (without it, existing results are an error).")
      ->excludes("--resume");
  cmd->add_option("--axis", c->axes, "Replace the axis NAME (or add it) with these values; repeat for more.")
      ->type_name("NAME=V1,V2")
      ->allow_extra_args(false);
  cmd->add_option("--param", c->params, "Set a workload parameter for every cell, over the base scenario and a value the sweep file "
                                                "fixes; not an axis (see below). Repeat for more.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--report", c->report, "After the sweep, write an HTML report: scaling per policy (msgs/s against "
                                         "cores or workers) and a heat map over two axes.")
      ->type_name("FILE");
  cmd->add_option("--heatmap", c->heatmap, "The report's heat-map axes. Default: the first two axes with several "
                                           "values, seeds aside.")
      ->type_name("X,Y");
  cmd->add_flag("--dry-run", c->dry_run, "List the cells (index and key) and exit.");
  cmd->add_flag("--slurm", c->slurm, "Run the cells as a Slurm job array (sbatch), wait, gather the results.");
  cmd->add_option("--slurm-opt", c->slurm_opts, "Pass an option to sbatch, e.g. --slurm-opt=--partition=short; "
                                                "repeat for more.")
      ->type_name("OPT")
      ->allow_extra_args(false);
  takes_whole(cmd->add_option("--tasks", c->tasks, "--slurm: array tasks the cells are dealt over.")
                  ->type_name("T")
                  ->capture_default_str(),
              1, 100000);
  cmd->add_flag("--no-wait", c->no_wait, "--slurm: submit and exit; gather later with --slurm --gather.");
  cmd->add_flag("--gather", c->gather, "--slurm: gather the tasks' result files into PREFIX.* and report what is missing.");
  takes(cmd->add_option("--slice", c->slice, "Run only the cells whose index mod T is K (what each Slurm array task runs).")
            ->type_name("K/T"),
        "K/T with 0 <= K < T", [](const std::string& s) { parse_slice(s); });
  cmd->callback([&chosen, c] {
    if ((c->no_wait || c->gather || c->slurm_opts.size()) && !c->slurm)
      throw usage_error("--no-wait, --gather and --slurm-opt go with --slurm");
    if (c->slurm && !c->slice.empty()) throw usage_error("--slice is what a Slurm task runs: not with --slurm");
    chosen = [c] { return run(*c); };
  });
}

}  // namespace twinsched::cli
