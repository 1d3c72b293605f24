// `twinsched explore`: run a scenario in simulation under many perturbed schedules, check every invariant, and hand back (and shrink) a failing schedule that replays every time.
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/schedule_flags.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/run_sim.hpp"
#include "traces/output_file.hpp"
#include "traces/scenario_text.hpp"

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

/// What one simulation under one schedule showed.
struct outcome {
  bool failed = false;
  std::string kind;   ///< which invariant: lost-wakeup, two-workers, per-sender-order, time-limit, crash, verdict
  std::string error;  ///< the first error, as the simulation reported it
  sim_result result;
};

/// The invariant a failed run broke, from what the simulation reported (run_sim, sim_platform).
std::string kind_of(const std::string& error) {
  if (error.find("parked with no timeout") != std::string::npos) return "lost-wakeup";
  if (error.find("entered by worker") != std::string::npos) return "two-workers";
  if (error.find("per-sender order") != std::string::npos) return "per-sender-order";
  if (error.find("simulated time limit") != std::string::npos) return "time-limit";
  if (error.find("platform operations without ending") != std::string::npos) return "livelock";
  if (error.find("failed:") != std::string::npos) return "behavior-error";
  return "verdict";
}

outcome judge(const sim_result& r) {
  outcome o;
  o.result = r;
  o.failed = !r.ok();
  if (!o.failed) return o;
  if (!r.run.errors.empty()) {
    o.error = r.run.errors.front();
  } else {
    std::ostringstream w;
    w << "the run's verdict failed: " << r.run.messages << " of " << r.run.expected_messages << " messages processed, "
      << r.run.leftover << " left over, checksum " << (r.run.checksum == r.run.reference ? "matches" : "differs")
      << (r.run.workload_ok ? "" : ", the workload's own check failed");
    o.error = w.str();
  }
  o.kind = kind_of(o.error);
  return o;
}

/// Runs `schedules` (each a full sim_options), `jobs` child processes at a time, and returns
/// their outcomes in the same order. `stop_after_failure`: once one fails, schedules after it
/// are not started (the ones before it always are: the first failure is deterministic).
/// `progress` is called about once a second.
std::vector<std::optional<outcome>> run_all(const scenario& s, const std::vector<sim_options>& schedules, unsigned jobs,
                                            bool stop_after_failure, double wall_limit_s,
                                            const std::function<void(std::size_t done, std::size_t failures)>& progress) {
  std::vector<std::optional<outcome>> out(schedules.size());
  struct slot {
    std::size_t index;
    running_simulation sim;
  };
  std::vector<slot> running;
  std::size_t next = 0, done = 0, failures = 0, first_failure = schedules.size();
  const auto t0 = std::chrono::steady_clock::now();
  auto last_progress = t0;
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  for (;;) {
    while (running.size() < jobs && next < schedules.size() && next < first_failure &&
           !(wall_limit_s > 0 && elapsed() >= wall_limit_s)) {
      running_simulation sim = start_simulation(s, schedules[next]);
      ::fcntl(sim.fd, F_SETFL, ::fcntl(sim.fd, F_GETFL) | O_NONBLOCK);
      running.push_back({next++, std::move(sim)});
    }
    if (running.empty()) break;
    std::vector<pollfd> fds;
    for (auto& r : running) fds.push_back({r.sim.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 200);
    for (std::size_t k = 0; k < running.size();) {
      if (!read_available(running[k].sim)) {
        ++k;
        continue;
      }
      outcome o;
      try {
        o = judge(finish_simulation(running[k].sim));
      } catch (const std::exception& e) {  // the simulation process crashed: a failure too
        o.failed = true;
        o.kind = "crash";
        o.error = e.what();
      }
      std::size_t i = running[k].index;
      if (o.failed) {
        ++failures;
        if (stop_after_failure) first_failure = std::min(first_failure, i);
      }
      out[i] = std::move(o);
      ++done;
      running.erase(running.begin() + std::ptrdiff_t(k));
    }
    auto now = std::chrono::steady_clock::now();
    if (progress && now - last_progress >= std::chrono::seconds(1)) {
      progress(done, failures);
      last_progress = now;
    }
  }
  return out;
}

std::string seconds(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", s);
  return b;
}

/// The command line that reproduces a schedule, on the scenario explore wrote out.
std::string repro_command(const std::string& scenario_file, const sim_options& o, const std::string& trace) {
  std::ostringstream c;
  c << "twinsched sim " << scenario_file << " --checks";
  if (o.cores) c << " --cores " << o.cores;
  if (!o.machine.empty()) c << " --machine " << o.machine;
  if (o.interleave != "coarse") c << " --interleave " << o.interleave;
  c << " --time-limit " << o.time_limit_s;
  if (o.max_points) c << " --max-operations " << o.max_points;
  const schedule_spec& s = o.schedule;
  if (s.strategy == "list") {
    c << " --preemptions " << format_preemptions(s.list);
  } else {
    c << " --strategy " << s.strategy << " --schedule " << s.seed;
    if (s.strategy == "random") c << " --p " << s.p;
    if (s.strategy == "pct") c << " --depth " << s.depth;
    c << " --delay " << s.min_delay_ns << ".." << s.max_delay_ns;
  }
  if (!trace.empty()) c << " --trace " << trace;
  return c.str();
}

/// Delta debugging (Zeller's ddmin) over the failing run's preemptions: the smallest list that
/// still breaks the same invariant. Each round tries its candidates `jobs` at a time and
/// takes the first that fails in a fixed order, so shrinking is deterministic too.
std::vector<preemption> shrink_schedule(const scenario& s, const sim_options& failing, std::vector<preemption> list,
                                        const std::string& kind, unsigned jobs, std::size_t& tries) {
  auto fails = [&](const std::vector<std::vector<preemption>>& candidates) -> std::optional<std::size_t> {
    std::vector<sim_options> opts;
    for (auto& c : candidates) {
      sim_options o = failing;
      o.schedule = schedule_spec{};
      o.schedule.strategy = "list";
      o.schedule.list = c;
      opts.push_back(o);
    }
    tries += opts.size();
    auto results = run_all(s, opts, jobs, true, 0, {});
    for (std::size_t i = 0; i < results.size(); ++i)
      if (results[i] && results[i]->failed && results[i]->kind == kind) return i;
    return std::nullopt;
  };
  std::size_t n = 2;
  while (list.size() >= 2) {
    const std::size_t size = list.size();
    n = std::min(n, size);
    std::vector<std::vector<preemption>> parts(n), complements(n);
    for (std::size_t i = 0; i < size; ++i) parts[i * n / size].push_back(list[i]);
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < n; ++j)
        if (j != k) complements[k].insert(complements[k].end(), parts[j].begin(), parts[j].end());
    if (auto i = fails(parts)) {
      list = parts[*i];
      n = 2;
    } else if (auto j = n > 2 ? fails(complements) : std::nullopt) {
      list = complements[*j];
      n = std::max<std::size_t>(n - 1, 2);
    } else if (n >= size) {
      break;
    } else {
      n = std::min(size, 2 * n);
    }
  }
  if (list.size() == 1 && fails({{}})) list.clear();  // fails with no preemption at all
  return list;
}

int run(const explore_cli& c) {
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(s);
  s.sched.checks = true;  // every invariant the runtime can check, on every message
  sim_options base = c.opt;
  if (given(c.cores_opt)) {
    base.cores = std::uint32_t(parse_whole(c.cores_text, 1, cores_limit));
    if (!given(c.flags.workers_opt)) s.sched.workers = base.cores;
  }
  schedule_spec spec;
  try {
    spec = c.schedule.resolve();
  } catch (const std::invalid_argument& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  if (spec.strategy == "list") throw scenario_error("command line", 0, 0, "explore draws schedules: use random or pct (sim runs a --preemptions list)");
  try {
    validate(s);
  } catch (const config_error& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  // where the scenario, traces and reproductions go: usable before any simulation runs
  const std::string dir = c.out_dir.empty() ? "explore-" + s.name : c.out_dir;
  const std::string scenario_file = dir + "/scenario.toml";
  files::check_output_folder(dir, "--out", true);
  if (std::filesystem::is_directory(dir))
    files::check_output(scenario_file, "--out", {c.file, c.opt.machine.empty() ? s.machine : c.opt.machine});
  const bool tty = ::isatty(STDERR_FILENO);
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };

  // An unperturbed run first: it must pass, and it sizes the time limit, the operation budget
  // (a livelock spends operations without ending) and PCT's horizon. Its own bounds are
  // generous fixed ones: 60 simulated seconds and 100 million operations.
  if (!c.sim_limit_given) base.time_limit_s = 60;
  base.max_points = 100'000'000;
  sim_result plain = simulate(s, base);
  if (!plain.ok()) {
    outcome o = judge(plain);
    std::cout << "explore: the scenario fails with no preemption at all (" << o.kind << "): " << o.error << '\n';
    return 1;
  }
  if (!c.sim_limit_given) base.time_limit_s = std::max(10.0, 100 * plain.sim_s);
  base.max_points = std::max<std::uint64_t>(1'000'000, 50 * plain.points);
  spec.horizon = plain.points;
  std::filesystem::create_directory(dir);
  files::write_whole(scenario_file, traces::canonical_scenario_text(s));

  std::vector<sim_options> schedules;
  for (std::uint64_t k = 0; k < c.runs; ++k) {
    sim_options o = base;
    o.schedule = spec;
    o.schedule.seed = spec.seed + k;
    schedules.push_back(o);
  }
  std::cerr << "explore: " << s.name << ", " << s.sched.policy << ", " << s.sched.workers << " workers, idle "
            << s.sched.idle.strategy << "; " << c.runs << " schedules (" << describe_schedule(spec) << ", seeds " << spec.seed
            << ".." << spec.seed + c.runs - 1 << "), " << c.jobs << " at a time; an unperturbed run has " << plain.points
            << " platform operations\n";
  auto progress = [&](std::size_t done, std::size_t failures) {
    double t = elapsed();
    std::fprintf(stderr, "%sexplore: %zu/%llu runs, %.1f runs/s, %zu failures%s", tty ? "\r" : "", done,
                 (unsigned long long)c.runs, t > 0 ? double(done) / t : 0.0, failures, tty ? "   " : "\n");
  };
  auto results = run_all(s, schedules, c.jobs, true, c.wall_limit_s, progress);
  if (tty) std::cerr << '\n';
  std::size_t ran = 0;
  std::optional<std::size_t> failed;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (!results[i]) continue;
    ++ran;
    if (results[i]->failed && !failed) failed = i;
  }
  if (!failed) {
    std::cout << "explore: " << ran << " schedules (seeds " << spec.seed << ".." << spec.seed + ran - 1 << ", "
              << describe_schedule(spec) << "): no invariant broken, in " << seconds(elapsed()) << " ("
              << (elapsed() > 0 ? double(ran) / elapsed() : 0) << " runs/s)"
              << (ran < c.runs ? "; stopped at the --time-limit" : "") << '\n';
    return 0;
  }
  const outcome& f = *results[*failed];
  const sim_options& fo = schedules[*failed];
  std::cout << "explore: FAILED at schedule seed " << fo.schedule.seed << " (run " << *failed + 1 << " of " << ran << ", "
            << seconds(elapsed()) << ")\n";
  std::cout << "  invariant   " << f.kind << '\n';
  std::cout << "  error       " << f.error.substr(0, f.error.find('\n')) << '\n';
  std::cout << "  schedule    " << describe_schedule(fo.schedule) << ": " << f.result.preemptions.size()
            << " preemptions\n";
  // The failing run again, traced: the same schedule gives the same run, event for event.
  const std::string trace = dir + "/seed-" + std::to_string(fo.schedule.seed) + ".tst";
  sim_options traced = fo;
  traced.trace_path = trace;
  sim_result again = simulate(s, traced);
  // (tracing adds its events to the event hash, so compare where and how the run failed)
  const bool same = again.points == f.result.points && again.sim_s == f.result.sim_s && judge(again).error == f.error;
  std::cout << "  trace       " << trace << (same ? "" : " (WARNING: the traced rerun did not fail the same way)") << '\n';
  std::cout << "  reproduce   " << repro_command(scenario_file, fo, "") << '\n';
  if (f.error.find('\n') != std::string::npos) std::cout << "  state at the failure:\n" << f.error.substr(f.error.find('\n') + 1) << '\n';
  if (!c.shrink) return 1;

  std::size_t tries = 0;
  const auto s0 = elapsed();
  std::vector<preemption> small = shrink_schedule(s, fo, f.result.preemptions, f.kind, c.jobs, tries);
  sim_options shrunk = fo;
  shrunk.schedule = schedule_spec{};
  shrunk.schedule.strategy = "list";
  shrunk.schedule.list = small;
  const std::string strace = dir + "/seed-" + std::to_string(fo.schedule.seed) + "-shrunk.tst";
  shrunk.trace_path = strace;
  outcome check = judge(simulate(s, shrunk));
  std::cout << "shrunk: " << f.result.preemptions.size() << " -> " << small.size() << " preemptions in " << tries
            << " runs (" << seconds(elapsed() - s0) << "); it still breaks " << check.kind
            << (check.failed && check.kind == f.kind ? "" : " (WARNING: the shrunk schedule does not fail the same way)")
            << '\n';
  for (const auto& p : check.result.preemptions) std::cout << "  " << describe_preemption(p) << '\n';
  std::cout << "  error       " << check.error.substr(0, check.error.find('\n')) << '\n';
  shrunk.trace_path.clear();
  std::cout << "  trace       " << strace << "  (step through it: twinsched replay " << strace << " --step)\n";
  std::cout << "  reproduce   " << repro_command(scenario_file, shrunk, "") << '\n';
  return 1;
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
  auto c = std::make_shared<explore_cli>();
  CLI::App* cmd = app.add_subcommand(
      "explore", "Search interleavings in simulation: many perturbed schedules, every invariant checked; a failing "
                 "schedule is reproduced, traced and (with --shrink) minimized.");
  cmd->footer(explore_footer);
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  c->flags.add_to(*cmd, "Worker threads (S4U actors). Default: --cores if given, else the scenario's.");
  c->schedule.add_to(*cmd, true);
  takes_whole(cmd->add_option("--runs", c->runs, "Schedule seeds to try.")->type_name("N")->capture_default_str(), 1,
              100'000'000);
  takes_whole(cmd->add_option("--jobs", c->jobs, "Simulations at once (one process each).")->type_name("J")->capture_default_str(),
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
  cmd->callback([&chosen, c] {
    c->sim_limit_given = given(c->sim_limit_opt);
    chosen = [c] { return run(*c); };
  });
}

}  // namespace twinsched::cli
