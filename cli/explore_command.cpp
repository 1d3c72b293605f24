// `twinsched explore`: run a scenario in simulation under many perturbed schedules, check every invariant, and hand back (and shrink) a failing schedule that replays every time.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/schedule_flags.hpp"
#include "cli/subcommand.hpp"
#include "explore/exploration.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"

namespace twinsched::cli {
namespace {

struct explore_cli {
  std::string file, out_dir, cores_text;
  scenario_flags flags;
  schedule_flags schedule;
  sim_options opt;
  std::uint64_t runs = 1000;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  double wall_limit_s = 0;
  bool shrink = false, sim_limit_given = false;
  CLI::Option *cores_opt = nullptr, *sim_limit_opt = nullptr;
};

int run(const explore_cli& c) {
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(s);
  s.sched.checks = true;  // every invariant the runtime can check, on every message
  explore::exploration e;
  e.base = c.opt;
  if (given(c.cores_opt)) {
    e.base.cores = std::uint32_t(parse_whole(c.cores_text, 1, cores_limit));
    if (!given(c.flags.workers_opt)) s.sched.workers = e.base.cores;
  }
  try {
    e.spec = c.schedule.resolve();
  } catch (const std::invalid_argument& err) {
    throw scenario_error("command line", 0, 0, err.what());
  }
  if (e.spec.strategy == "list") throw scenario_error("command line", 0, 0, "explore draws schedules: use random or pct (sim runs a --preemptions list)");
  try {
    validate(s);
  } catch (const config_error& err) {
    throw scenario_error("command line", 0, 0, err.what());
  }
  // where the scenario, traces and reproductions go: usable before any simulation runs
  e.dir = c.out_dir.empty() ? "explore-" + s.name : c.out_dir;
  e.scenario_file = e.dir + "/scenario.toml";
  files::check_output_folder(e.dir, "--out", true);
  if (std::filesystem::is_directory(e.dir))
    files::check_output(e.scenario_file, "--out", {c.file, c.opt.machine.empty() ? s.machine : c.opt.machine});
  e.sim_limit_given = c.sim_limit_given;
  e.runs = c.runs;
  e.jobs = c.jobs;
  e.wall_limit_s = c.wall_limit_s;
  e.shrink = c.shrink;
  const bool tty = ::isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  e.progress = [&](std::size_t done, std::size_t failures) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "%sexplore: %zu/%llu runs, %.1f runs/s, %zu failures%s", tty ? "\r" : "", done,
                 (unsigned long long)c.runs, t > 0 ? double(done) / t : 0.0, failures, tty ? "   " : "\n");
  };
  e.progress_end = [tty] {
    if (tty) std::cerr << '\n';
  };
  return explore::run_exploration(s, e, std::cout, std::cerr);
}

constexpr const char* explore_footer = R"(explore runs the scenario in the simulator once per schedule seed, preempting workers at
platform operations (atomics, fences, locks, parks, unparks) as the seed says, with every
check on: the one-owner guard, per-sender order, the all-parked check (every worker parked
with no timeout while the run is not over: a lost wake-up), the simulated time limit, the
message count, leftovers and the workload's checksum. The first failing seed (in seed order,
whatever --jobs) is traced again and printed with one command line that reproduces it.
--shrink then removes preemptions (delta debugging) while the same invariant still breaks.
Examples:
  twinsched explore pingpong --policy sharing --idle park --workers 3 --param pairs=3 --runs 500
  twinsched explore pi --strategy pct --depth 3 --runs 200 --shrink
Exit codes: 0 no schedule broke an invariant, 1 one did (or the scenario fails without
preemptions), 2 a bad scenario or flag.)";

}  // namespace

void add_explore_command(CLI::App& app, action& chosen) {
  auto [cmd, c] = add_command<explore_cli>(
      app, chosen, "explore",
      "Search interleavings in simulation: many perturbed schedules, every invariant checked; a failing "
      "schedule is reproduced, traced and (with --shrink) minimized.",
      explore_footer, run, [](explore_cli& o) { o.sim_limit_given = given(o.sim_limit_opt); });
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  c->flags.add_to(*cmd, "Worker threads (S4U actors). Default: --cores if given, else the scenario's.");
  c->schedule.add_to(*cmd, true);
  takes_whole(cmd->add_option("--runs", c->runs, "Schedule seeds to try.")->type_name("N")->capture_default_str(), 1,
              100'000'000);
  takes_whole(cmd->add_option("--jobs", c->jobs, "Simulations at once (one runner process each, which simulates run after run).")->type_name("J")->capture_default_str(),
              1, 256);
  c->cores_opt = cmd->add_option("--cores", c->cores_text, "Modeled cores. Default: the machine's.")->type_name("N");
  takes_whole(c->cores_opt, 1, cores_limit);
  cmd->add_option("--machine", c->opt.machine, "Machine model (name or .toml path). Default: the scenario's.")->type_name("MACHINE");
  cmd->add_option("--interleave", c->opt.interleave, "coarse or fine (every atomic operation a scheduling point).")
      ->type_name("MODE")
      ->check(CLI::IsMember({"coarse", "fine"}))
      ->capture_default_str();
  takes(cmd->add_option("--time-limit", c->wall_limit_s, "Stop starting new runs after this many wall-clock seconds (0: none).")
            ->type_name("S"),
        "a number of seconds, 0 or more", [](const std::string& t) { parse_decimal(t, true); });
  c->sim_limit_opt = takes(cmd->add_option("--sim-time-limit", c->opt.time_limit_s,
                                           "Simulated seconds after which a run counts as hung. Default: 100 x the "
                                           "unperturbed run, at least 10.")
                               ->type_name("S"),
                           "a number of simulated seconds above 0", [](const std::string& t) { parse_decimal(t, false); });
  cmd->add_flag("--shrink", c->shrink, "Minimize the failing schedule to the fewest preemptions that still break the invariant.");
  cmd->add_option("--out", c->out_dir, "Folder for the scenario, traces and reproductions. Default: explore-<scenario name>.")
      ->type_name("DIR");
}

}  // namespace twinsched::cli
