// `twinsched suite [NAME]`: every benchmark of a stock suite (scenarios/NAME/) under every policy that applies, on real cores and in simulation, as a table.
#include <iostream>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/subcommand.hpp"
#include "cli/sweep_display.hpp"
#include "sweep/suite_run.hpp"

namespace twinsched::cli {
namespace {

struct suite_cli {
  suite_request r;
  std::string workers = "1,2", cores = "1,2,16";
  suite_cli() { r.jobs = std::max(1u, std::thread::hardware_concurrency()); }
};

constexpr const char* suite_footer = R"(A suite is a folder of scenario files, one per benchmark: a stock one, scenarios/NAME/ (savina:
the Savina actor benchmarks, `twinsched list scenarios`), or any folder, given as a path (./my-suite).
Each benchmark runs under every policy that applies to it (donation only where the workload declares
groups of equal actors; the others show n/a) at each --workers count on real cores and each --cores
count in simulation (one worker per simulated core), at the scenario file's sizes (Savina's defaults;
--quick: the test sizes of tests/NAME/*.cases, lines `SCENARIO | POLICIES | --param K=V ...`). The cells are a
sweep per backend whose scenario axis is the benchmarks (docs/SWEEPS.md; for result files, --resume
or Slurm, write that sweep file): simulations run --jobs at a time, real runs one at a time after.
The table: a line per benchmark and policy, a column per configuration (real Nw: wall time with N
workers; sim Nc: simulated time on N cores; both from the workers' start to quiescence), FAIL or ERROR
where a cell's verdict failed, and the verdict; then the best (fastest passing) policy and
configuration per benchmark and backend. A simulation that reaches --time-limit simulated seconds is a
hang: FAIL.
Examples:
  twinsched suite                                   all of Savina, 1 and 2 workers, 1, 2 and 16 cores
  twinsched suite savina --only count,pingpong --policies stealing,sharing --backend sim --cores 2,16
  twinsched suite --quick --jobs 2                  every benchmark at its test size
  twinsched suite --only fib --json                 the rows as JSON (progress stays on stderr)
  twinsched suite --report savina.html              an HTML page: the table, a chart per benchmark
  twinsched suite ./my-suite --workers 4            a folder of your own scenario files
Exit codes: 0 every cell OK, 1 a cell failed, 2 an unknown suite, benchmark, policy or bad flag.)";

void check(suite_cli& c) {
  c.r.workers = parse_whole_list(c.workers, 1, workers_limit);
  c.r.cores = parse_whole_list(c.cores, 1, cores_limit);
}

int run(const suite_cli& c) {
  progress_display d("suite");
  return run_suite(c.r, d, std::cout, std::cerr);
}

}  // namespace

void add_suite_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<suite_cli>(
      app, chosen, "suite",
      "Run every benchmark of a suite (default: savina) under every policy that applies, on real cores and in "
      "simulation; a table of times and verdicts, the best policy per benchmark.",
      suite_footer, run, check);
  cmd->add_option("suite", c->r.suite, "A stock suite (scenarios/NAME/) or a folder of scenario files (a path).")
      ->type_name("NAME")
      ->capture_default_str();
  cmd->add_option("--only", c->r.only, "Only these benchmarks (file names without .toml).")
      ->type_name("A,B,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  cmd->add_option("--policies", c->r.policies, "These policies (each still only where it applies). Default: every policy.")
      ->type_name("P,Q,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  takes(cmd->add_option("--workers", c->workers, "Worker counts on real cores.")->type_name("N,M")->capture_default_str(),
        "a list of whole numbers from 1 to " + std::to_string(workers_limit),
        [](const std::string& s) { parse_whole_list(s, 1, workers_limit); });
  takes(cmd->add_option("--cores", c->cores, "Simulated core counts (a worker each).")->type_name("N,M")->capture_default_str(),
        "a list of whole numbers from 1 to " + std::to_string(cores_limit),
        [](const std::string& s) { parse_whole_list(s, 1, cores_limit); });
  takes(cmd->add_option("--backend", c->r.backend, "real | sim | both.")->type_name("B")->capture_default_str(),
        "real, sim or both", [](const std::string& s) {
          if (s != "real" && s != "sim" && s != "both") throw std::invalid_argument(s);
        });
  takes(cmd->add_option("--time-limit", c->r.time_limit_s, "Simulated seconds before a simulation counts as hung (FAIL).")
            ->type_name("S")
            ->capture_default_str(),
        "a number of seconds above 0", [](const std::string& s) { parse_decimal(s, false); });
  takes_whole(cmd->add_option("-j,--jobs", c->r.jobs, "Simulations at once (runner processes, each simulating cell after cell of "
                                                      "one core count). Default: this machine's hardware threads.")
                  ->type_name("N")
                  ->capture_default_str(),
              1, 1024);
  cmd->add_flag("--quick", c->r.quick, "Each benchmark at its test size: the --param overrides of tests/NAME/*.cases "
                                       "(source tree only).");
  cmd->add_option("--sizes", c->r.sizes, "Read test sizes (--param overrides per benchmark) from FILE, in the "
                                         "tests/savina/*.cases format; repeat for more.")
      ->type_name("FILE")
      ->allow_extra_args(false);
  cmd->add_flag("--json", c->r.json, "Print the rows, the best per benchmark and the cells left out as JSON, not the table.");
  cmd->add_option("--report", c->r.report, "Write an HTML page: the table and a chart per benchmark (time per policy, "
                                           "real beside simulated).")
      ->type_name("FILE");
}

}  // namespace twinsched::cli
