// `twinsched sweep SPEC.toml`: every combination of a sweep file's axes, run locally (--jobs) or as a Slurm job array, results appended per cell.
#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/sweep_display.hpp"
#include "cli/subcommand.hpp"
#include "sweep/sweep_run.hpp"

namespace twinsched::cli {
namespace {

struct sweep_cli {
  sweep_request r;
  std::string slice;
  sweep_cli() { r.jobs = std::max(1u, std::thread::hardware_concurrency()); }
};

/// "K/T" -> (K, T) with K < T; throws std::invalid_argument.
std::pair<std::size_t, std::size_t> parse_slice(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw std::invalid_argument("no '/'");
  const std::size_t t = parse_whole(text.substr(slash + 1), 1, 1'000'000);
  const std::size_t k = parse_whole(text.substr(0, slash), 0, t - 1);
  return {k, t};
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
Axes: scenario (stock names or paths: one grid over several scenarios; docs/SWEEPS.md), policy, idle,
workers, cores, machine, burst, fifo, steal, seed, workload.<parameter>. skip_impossible = true
(top level) leaves out the cells that cannot run (donation without groups) instead of refusing.
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

/// Flags that may not go together: exit 2 before any cell runs.
void check(sweep_cli& c) {
  sweep_request& r = c.r;
  if ((r.no_wait || r.gather || r.slurm_opts.size()) && !r.slurm)
    throw usage_error("--no-wait, --gather and --slurm-opt go with --slurm");
  if (r.slurm && !c.slice.empty()) throw usage_error("--slice is what a Slurm task runs: not with --slurm");
  if (!c.slice.empty()) std::tie(r.slice_k, r.slice_t) = parse_slice(c.slice);
}

int run(const sweep_cli& c) {
  progress_display d("sweep");
  return run_sweep(c.r, d, std::cout, std::cerr);
}

}  // namespace

void add_sweep_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<sweep_cli>(
      app, chosen, "sweep",
      "Run every combination of a sweep file's axes (policies x cores x machines x parameters x seeds), "
      "locally or on Slurm; one result row per cell, resumable.",
      sweep_footer, run, check);
  cmd->add_option("sweep", c->r.file, "Sweep file (TOML); see below.")->type_name("SPEC.toml")->required();
  cmd->add_option("-o,--out", c->r.out,
                  "Write the results to PREFIX.csv and PREFIX.jsonl. Default: the sweep's name, here.")
      ->type_name("PREFIX");
  takes_whole(cmd->add_option("-j,--jobs", c->r.jobs, "Simulations at once (runner processes, each simulating cell after cell of "
                                                      "one core count). Default: this machine's hardware threads.")
                  ->type_name("N")
                  ->capture_default_str(),
              1, 1024);
  cmd->add_flag("--resume", c->r.resume, "Continue PREFIX.*: skip the cells that already have a row (not ERROR); "
                                         "refuses results of another grid or --param.");
  cmd->add_flag("--overwrite", c->r.overwrite, "Start PREFIX.* anew (without it, existing results are an error).")
      ->excludes("--resume");
  cmd->add_option("--axis", c->r.axes, "Replace the axis NAME (or add it) with these values; repeat for more.")
      ->type_name("NAME=V1,V2")
      ->allow_extra_args(false);
  cmd->add_option("--param", c->r.params, "Set a workload parameter for every cell, over the base scenario and a value the sweep file "
                                                  "fixes; not an axis (see below). Repeat for more.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  cmd->add_option("--report", c->r.report, "After the sweep, write an HTML report: scaling per policy (msgs/s against "
                                           "cores or workers) and a heat map over two axes.")
      ->type_name("FILE");
  cmd->add_option("--heatmap", c->r.heatmap, "The report's heat-map axes. Default: the first two axes with several "
                                             "values, seeds aside.")
      ->type_name("X,Y");
  cmd->add_flag("--dry-run", c->r.dry_run, "List the cells (index and key) and exit.");
  cmd->add_flag("--slurm", c->r.slurm, "Run the cells as a Slurm job array (sbatch), wait, gather the results.");
  cmd->add_option("--slurm-opt", c->r.slurm_opts, "Pass an option to sbatch, e.g. --slurm-opt=--partition=short; "
                                                  "repeat for more.")
      ->type_name("OPT")
      ->allow_extra_args(false);
  takes_whole(cmd->add_option("--tasks", c->r.tasks, "--slurm: array tasks the cells are dealt over.")
                  ->type_name("T")
                  ->capture_default_str(),
              1, 100000);
  cmd->add_flag("--no-wait", c->r.no_wait, "--slurm: submit and exit; gather later with --slurm --gather.");
  cmd->add_flag("--gather", c->r.gather, "--slurm: gather the tasks' result files into PREFIX.* and report what is missing.");
  takes(cmd->add_option("--slice", c->slice, "Run only the cells whose index mod T is K (what each Slurm array task runs).")
            ->type_name("K/T"),
        "K/T with 0 <= K < T", [](const std::string& s) { parse_slice(s); });
}

}  // namespace twinsched::cli
