// `twinsched accuracy`: a matrix of scenarios x policies x workers, real runs against simulations, errors case by case.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/accuracy.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/sim_progress.hpp"
#include "runtime/run_threads.hpp"
#include "scenarios/scenario_loader.hpp"
#include "twin/calibrate.hpp"
#include "sim/machine_model.hpp"
#include "traces/output_file.hpp"
#include "sim/run_sim.hpp"
#include "viz/accuracy_report.hpp"

namespace twinsched::cli {
namespace {

struct accuracy_cli {
  std::vector<std::string> scenarios, policies, params;
  std::string workers_text, machine = "this-machine", tolerance, worst_tolerance;
  std::string report;  ///< --report: the makespan errors as an HTML page
  unsigned runs = 3, warmup = 1, reruns = 3;
  std::string order = "rounds";  ///< --order: rounds (every case once per round) or cases
  std::uint64_t seed = 0;
  bool json = false, markdown = false;
  CLI::Option *workers_opt = nullptr, *seed_opt = nullptr;
};

/// "1,2" -> {1, 2}, each 1..workers_limit; throws std::invalid_argument.
std::vector<std::uint32_t> parse_workers(const std::string& text) {
  std::vector<std::uint32_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::uint32_t(parse_whole(item, 1, workers_limit)));
  if (v.empty() || text.back() == ',') throw std::invalid_argument("no worker count");
  return v;
}

scenario_error command_line(const std::string& message) { return scenario_error("command line", 0, 0, message); }

std::string stem(const std::string& path) {
  std::string f = path.substr(path.find_last_of('/') + 1);
  return f.size() > 5 && f.ends_with(".toml") ? f.substr(0, f.size() - 5) : f;
}

/// The stock workloads: scenarios/*.toml except the sim_* files (the simulator's findings,
/// sized for many modeled cores). Without a scenarios folder, the embedded forward scenario.
std::vector<std::string> stock_files() {
  std::vector<std::string> v;
  for (const auto& f : list_scenario_files(stock_scenario_folder()))
    if (!stem(f).starts_with("sim_")) v.push_back(f);
  return v;
}

/// A --scenario value: a stock scenario's name or a path to a file, as every command reads one.
scenario resolve_scenario(const std::string& arg) {
  try {
    return load_scenario(arg);
  } catch (const scenario_error& e) {
    if (e.line() != 0) throw;  // the file's own error, at its line
    throw command_line("--scenario " + std::string(e.what()));
  }
}

/// Progress on stderr (cli/progress.hpp), by step (each real run, each simulation): on a
/// terminal one line redrawn in place with the step's case and phase (warm-up, run k and its
/// messages so far, the simulation's simulated time and messages); elsewhere one line per step.
class matrix_progress {
 public:
  explicit matrix_progress(std::size_t total)
      : total_(total), mode_(progress::mode_or_lines(false)), p_("accuracy", mode_, 0, 0) {}
  bool live() const { return mode_ == progress::mode::live; }
  progress& line() { return p_; }
  /// Step k (0-based) starts: a real run or the simulation of case `what`, named by `phase`.
  void step(std::size_t k, const std::string& what, const std::string& phase) {
    k_ = k;
    phase_ = phase;
    p_.update(status(what, phase));
  }
  /// The phase last given to step() ("real run 2/5").
  const std::string& phase() const { return phase_; }
  /// "[3/74] forward stealing 2w"
  std::string head(const std::string& what) const {
    return "[" + std::to_string(k_ + 1) + "/" + std::to_string(total_) + "] " + what;
  }
  std::string status(const std::string& what, const std::string& phase) const {
    const double elapsed = p_.elapsed_s();
    std::string s = head(what);
    if (!phase.empty()) s += ": " + phase;
    s += " (" + duration_text(elapsed) + " elapsed";
    if (k_ > 0) s += ", ETA " + duration_text(elapsed / double(k_) * double(total_ - k_));
    return s + ")";
  }
  /// More steps than planned (re-runs).
  void grow(std::size_t more) { total_ += more; }
  void done(std::size_t cases) {
    const std::string took = p_.elapsed_text();
    p_.finish();
    std::fprintf(stderr, "accuracy: %zu cases in %s\n", cases, took.c_str());
  }

 private:
  std::size_t total_, k_ = 0;
  std::string phase_;
  progress::mode mode_;
  progress p_;
};

std::string verdict_failure(const run_result& r) {
  if (!r.errors.empty()) return r.errors.front();
  if (r.messages != r.expected_messages)
    return std::to_string(r.messages) + " messages processed, " + std::to_string(r.expected_messages) + " expected";
  if (r.checksum != r.reference) return "checksum differs from the sequential reference";
  if (r.leftover) return std::to_string(r.leftover) + " mailboxes or queued actors left over";
  return "the workload's own check failed";
}

/// A measured real run, and whether the host was in the model's state on both sides of it.
struct measured_run {
  run_result r;
  bool in_state;
};

/// One real run of a case, in this process. A failed run sets the case's failure and gives
/// nothing; a failed case runs no more.
std::optional<run_result> real_run(accuracy_case& c, matrix_progress& p, std::size_t step, const std::string& phase) {
  if (!c.failure.empty()) return std::nullopt;
  const std::string name = case_name(c.s);
  p.step(step, name, phase);
  try {
    run_result r = p.live() ? run_with_progress(p.line(), c.s, {}, p.head(name) + ": " + p.phase()) : run_on_threads(c.s);
    if (r.ok()) return r;
    c.failure = "real run: " + verdict_failure(r);
  } catch (const std::exception& e) {
    c.failure = std::string("real run: ") + e.what();
  }
  return std::nullopt;
}

/// The case's real figure from its measured runs (the median of those made in the model's
/// host state, or of all when none was: host_moved), then its one simulation, in a child process.
/// With `all_off` (no run of the matrix found the host in the model's state: it models another
/// machine, or this one in another state) every run counts, as the host check then says.
void finish_case(accuracy_case& c, const std::vector<measured_run>& runs, bool all_off, const accuracy_cli& o,
                 matrix_progress& p, std::size_t step) {
  if (!c.failure.empty()) return;
  const std::string name = case_name(c.s);
  c.host_moved = !all_off && std::none_of(runs.begin(), runs.end(), [](const measured_run& m) { return m.in_state; });
  std::vector<const run_result*> kept;
  for (const auto& m : runs) {
    const bool counts = m.in_state || all_off || c.host_moved;
    (counts ? c.real_runs_s : c.off_state_runs_s).push_back(m.r.wall_s);
    if (counts) kept.push_back(&m.r);
  }
  std::sort(kept.begin(), kept.end(), [](const run_result* a, const run_result* b) { return a->wall_s < b->wall_s; });
  c.real = *kept[(kept.size() - 1) / 2];
  p.step(step, name, "simulating on " + o.machine);
  try {
    sim_options so;
    // The cores the real run could use: its workers', or more where adaptive may start more
    // threads than it begins with (up to this machine's cores, which the real run shares).
    so.cores = std::max(c.s.sched.workers, std::min(c.s.sched.max_workers, std::max(1u, std::thread::hardware_concurrency())));
    so.machine = o.machine;
    c.sim = p.live() ? simulate_with_progress(p.line(), c.s, so, p.head(name)) : simulate(c.s, so);
    if (!c.sim.ok()) c.failure = "simulation: " + verdict_failure(c.sim.run);
  } catch (const std::exception& e) {
    c.failure = std::string("simulation: ") + e.what();
  }
}

/// The tests' seam for the host probes: TWINSCHED_TEST_PROBES="10,10,100" gives the figures
/// the probes return, in order (the last one repeats), so a test can move the host between
/// two chosen runs. Empty (the machine is probed) when unset.
std::vector<double> scripted_probes() {
  std::vector<double> v;
  const char* env = std::getenv("TWINSCHED_TEST_PROBES");
  std::stringstream ss(env ? env : "");
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stod(item));
  return v;
}

/// Every real run, then every simulation. --order rounds (the default): round r runs every
/// case once, so a case's runs lie minutes apart and a slow spell of a shared host lands on
/// one run of many cases, not on every run of one; --order cases: a case's runs one after
/// another (warm-ups first), as before.
/// The host probes (setup.host_line_ns): one before the first real run and one after each, so
/// every run lies between two. A measured run counts as made in the model's state when both
/// match the model (probe_matches). Then up to --reruns rounds re-run, once each, the cases
/// short of --runs such runs, until none is short or a round gains none (the host stays
/// elsewhere: more runs would not help); none when no run was in the model's state.
void run_matrix(std::vector<accuracy_case>& cases, const accuracy_cli& o, accuracy_setup& setup) {
  const std::size_t n = cases.size(), per_case = o.warmup + o.runs;
  matrix_progress p(n * (per_case + 1));
  std::vector<std::vector<measured_run>> measured(n);
  auto phase = [&](unsigned i) {
    return i < o.warmup ? std::string("real warm-up")
                        : "real run " + std::to_string(i - o.warmup + 1) + "/" + std::to_string(o.runs);
  };
  std::size_t step = 0;
  bool in_state = true;  // the last probe's verdict
  const std::vector<double> scripted = scripted_probes();
  auto probe = [&] {
    const std::size_t i = setup.host_line_ns.size();
    if (const double ns = scripted.empty() ? probe_line_transfer_ns() : scripted[std::min(i, scripted.size() - 1)]; ns > 0) {
      setup.host_line_ns.push_back(ns);
      in_state = probe_matches(setup, ns);
    }
  };
  // case k's run, a measured one unless `warm`, with the probe after it
  auto one = [&](std::size_t k, bool warm, const std::string& what) {
    const bool before = in_state;
    auto r = real_run(cases[k], p, step++, what);
    probe();
    if (!r || warm) return;
    measured[k].push_back({std::move(*r), before && in_state});
    ++(measured[k].back().in_state ? setup.runs_in_state : setup.runs_off_state);
  };
  probe();
  if (!in_state) {
    char figures[128];
    std::snprintf(figures, sizeof figures, "line transfer here %.1f ns, the model's %.1f: over 2x apart",
                  setup.host_line_ns.back(), setup.model_line_ns);
    std::cerr << "accuracy: warning: " << figures << " (the host moved this VM's CPUs, or this is another machine). Runs made in this state are re-run "
                 "(--reruns) and, failing that, left out, unless no run finds the model's state. Run `twinsched calibrate -o FILE` now and pass --machine FILE\n";
  }
  if (o.order == "cases") {
    for (std::size_t k = 0; k < n; ++k)
      for (unsigned i = 0; i < per_case; ++i) one(k, i < o.warmup, phase(i));
  } else {
    for (unsigned i = 0; i < per_case; ++i)
      for (std::size_t k = 0; k < n; ++k) one(k, i < o.warmup, phase(i));
  }
  auto short_of_runs = [&](std::size_t k) {
    return cases[k].ok() && std::size_t(std::count_if(measured[k].begin(), measured[k].end(),
                                                      [](const measured_run& m) { return m.in_state; })) < o.runs;
  };
  for (unsigned round = 1; round <= o.reruns && setup.runs_in_state > 0; ++round) {
    std::vector<std::size_t> todo;
    for (std::size_t k = 0; k < n; ++k)
      if (short_of_runs(k)) todo.push_back(k);
    if (todo.empty()) break;
    p.grow(todo.size());
    const std::size_t before = setup.runs_in_state;
    for (std::size_t k : todo) one(k, false, "real re-run " + std::to_string(round) + " (the host was elsewhere)");
    setup.reran += todo.size();
    if (setup.runs_in_state == before) break;
  }
  for (std::size_t k = 0; k < n; ++k) finish_case(cases[k], measured[k], setup.runs_in_state == 0, o, p, step++);
  p.done(n);
}

int accuracy(const accuracy_cli& o) {
  const unsigned here = std::max(1u, std::thread::hardware_concurrency());
  if (o.json && o.markdown) throw command_line("--json and --markdown: choose one");
  accuracy_setup setup;
  setup.model_line_ns = load_machine(o.machine).line_same_socket;  // a bad name or file: exit 2, before anything runs
  if (!o.report.empty()) {  // now: an unwritable --report fails before minutes of runs
    std::vector<std::string> inputs = o.scenarios;
    inputs.push_back(o.machine);
    files::check_output(o.report, "--report", inputs);
  }

  std::vector<std::uint32_t> workers;
  if (given(o.workers_opt)) {
    workers = parse_workers(o.workers_text);
    for (auto w : workers)
      if (w > here)
        throw command_line("--workers " + std::to_string(w) + ": this machine has " + std::to_string(here) +
                           " cores, and real runs compare with one modeled core per worker (at most " +
                           std::to_string(here) + ")");
  } else {
    for (std::uint32_t w : {1u, 2u})
      if (w <= here) workers.push_back(w);
      else std::cerr << "accuracy: " << w << " workers left out: this machine has " << here << " core\n";
  }

  std::vector<scenario> bases;
  if (o.scenarios.empty()) {
    for (const auto& f : stock_files()) bases.push_back(load_scenario_file(f));
    if (bases.empty()) bases.push_back(load_default_scenario());
  } else {
    for (const auto& a : o.scenarios) bases.push_back(resolve_scenario(a));
  }
  for (auto& s : bases) {
    if (o.seed_opt && o.seed_opt->count()) s.seed = o.seed;
    for (const auto& p : o.params) apply_param_override(s, p);
    s.trace = trace_level::off;
  }
  const std::vector<std::string>& policies = o.policies.empty() ? policy_names() : o.policies;

  std::vector<accuracy_case> cases;
  struct skip {
    std::string what, why, workers;
  };
  std::vector<skip> skipped;  // one entry per scenario x policy x reason, its worker counts joined
  for (const auto& base : bases)
    for (const auto& pol : policies)
      for (auto w : workers) {
        accuracy_case c;
        c.s = base;
        c.s.sched.policy = pol;
        c.s.sched.workers = w;
        try {
          validate(c.s);
        } catch (const config_error& e) {  // donation without groups, adaptive outside its thread range
          if (skipped.empty() || skipped.back().what != base.name + " " + pol || skipped.back().why != e.what())
            skipped.push_back({base.name + " " + pol, e.what(), std::to_string(w)});
          else
            skipped.back().workers += ", " + std::to_string(w);
          continue;
        }
        cases.push_back(std::move(c));
      }
  auto text = [](const skip& s) { return s.what + " (workers " + s.workers + "): " + s.why; };
  if (cases.empty())
    throw command_line("no case to run: " + text(skipped.front()) +
                       (skipped.size() > 1 ? " (and " + std::to_string(skipped.size() - 1) + " more)" : ""));
  for (const auto& s : skipped) std::cerr << "accuracy: skipped, does not apply: " << text(s) << '\n';

  run_matrix(cases, o, setup);

  setup.machine = o.machine;
  setup.host_cores = here;
  setup.runs = o.runs;
  setup.warmup = o.warmup;
  setup.order = o.order;
  setup.reruns = o.reruns;
  if (!o.tolerance.empty()) setup.tolerance = parse_tolerance(o.tolerance);
  if (!o.worst_tolerance.empty()) setup.worst_tolerance = parse_tolerance(o.worst_tolerance);
  const accuracy_summary sum = summarize(cases);
  if (o.json)
    std::cout << accuracy_json(setup, cases, sum).dump(2) << '\n';
  else
    print_accuracy(std::cout, setup, cases, sum, o.markdown);
  if (!o.report.empty()) {
    std::vector<viz::accuracy_bar> bars;
    for (const auto& c : cases)
      bars.push_back({case_name(c.s), c.ok() ? c.real.wall_s : 0, c.ok() ? c.sim.run.wall_s : 0, !c.ok()});
    files::output_file page(o.report);
    viz::write_accuracy_report(page.stream(), "twinsched accuracy on " + o.machine, makespan_summary(sum), bars);
    page.commit();
    std::cerr << "accuracy: wrote " << o.report << '\n';
  }
  return within_tolerance(setup, sum) ? 0 : 1;
}

constexpr const char* accuracy_footer =
    R"(Each case is one scenario with one policy and one worker count. The real side runs it on
this machine's threads: --warmup runs first (discarded: the burn loop's calibration, page
faults, a cold allocator and caches land there), then --runs measured runs, one at a time in
this process, untraced, nothing else of twinsched running; the real makespan is their median
and its counters are those of the median run (for an even --runs, the faster middle one).
By default the runs go in rounds (--order rounds): the warm-up round runs every case once,
then each measured round does, so one case's runs lie minutes apart and a slow spell of a
shared host costs one run of many cases instead of every run of one (on the development VM
the same pingpong case took 210-242 ms in six runs in a row and 980 ms in three in a row 15
minutes later). --order cases runs each case's warm-ups and runs one after another.
Every simulation runs after the last real run.
The host check: before the first real run and after each, a line transfer between CPU 0
and another core is probed as calibrate measures it (a few ms) and set beside the model's. Over 2x
apart, the machine is not the one the model describes (the development VM's host moves its
two CPUs apart now and then: 9-12 ns one hour, 73 the next, sometimes within a matrix). A
measured run counts only if the probes on both sides of it match: the real figure is the
median of those; after the rounds, up to --reruns more rounds re-run each case short of
--runs such runs, until none is short or a round gains nothing. A case with no run in the
model's state is shown with * and left out of the summary. When no run of the matrix found
the host in the model's state (the model is of another machine, or of this one in another
state), every run counts and nothing is re-run. Either way: HOST CHECK FAILED under the
table, "matches": false in the JSON; a warning on stderr when the first probe disagrees.
Calibrate again then.
Workers are threads, not pinned. The simulated side runs the same scenario once (it is
deterministic) in a child process on --machine with one modeled core per worker (adaptive:
per thread it may start, up to this machine's cores, as the real run could use them).
Error = (sim - real) / real, signed: negative means the simulator predicts too short a run.
Busy share is compared in percentage points; a counter that is 0 on real cores and not in
simulation has no relative error (n/a). A case whose run fails its verdict is FAIL and
left out of the statistics.
The defaults: every stock scenario (scenarios/*.toml except the sim_* finding scenarios;
`twinsched list scenarios`) x every policy the scenario can use (donation needs a group of
equal actors; adaptive a worker count within its min/max) x 1 and 2 workers (at most this
machine's cores; a larger --workers is refused). Progress goes to stderr, by step (each real
run, each simulation): on a terminal a line with the step's case, its phase and how far it
has got (messages of a real run, simulated time and messages of the simulation); elsewhere
a line per step.
--tolerance compares the median over the compared cases of |makespan error| (the "median"
of the summary line); --worst-tolerance the largest |makespan error|. The counters never
decide the exit code.
Examples:
  twinsched accuracy                                        the full default matrix
  twinsched accuracy --scenario pi --scenario skewed --policy stealing,sharing --workers 2
  twinsched accuracy --scenario forward --param hops=2000 --runs 5 --markdown > table.md
  twinsched accuracy --machine my-machine.toml --tolerance 10% --worst-tolerance 25%
Exit codes: 0 every case ran and the tolerances (if given) hold; 1 a tolerance is exceeded
or a run failed its verdict; 2 a bad flag, scenario or machine.)";

}  // namespace

void add_accuracy_command(CLI::App& app, action& chosen) {
  auto o = std::make_shared<accuracy_cli>();
  CLI::App* cmd = app.add_subcommand(
      "accuracy", "How well the simulator predicts this machine: a matrix of scenarios x policies x workers, each run "
                  "on real cores and simulated, with the signed error of the makespan and the counters.");
  cmd->footer(accuracy_footer);
  cmd->add_option("--scenario", o->scenarios,
                  "A scenario file or a stock scenario's name (forward, pi, ...); repeat for more. Default: every "
                  "stock scenario.")
      ->type_name("SCENARIO")
      ->allow_extra_args(false);
  cmd->add_option("--policy", o->policies, "Policies to run, comma-separated or repeated. Default: every one that applies.")
      ->type_name("P[,P...]")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(CLI::IsMember(policy_names()));
  o->workers_opt = cmd->add_option("--workers", o->workers_text,
                                   "Worker counts, comma-separated; the simulation gets as many modeled cores. At most "
                                   "this machine's cores. Default: 1,2.")
                       ->type_name("N[,N...]");
  takes(o->workers_opt, "a comma-separated list of whole numbers from 1 to " + std::to_string(workers_limit),
        [](const std::string& text) { parse_workers(text); });
  cmd->add_option("--machine", o->machine,
                  "Machine model for the simulated side: a name (`twinsched list machines`) or a .toml path.")
      ->type_name("MACHINE")
      ->capture_default_str();
  takes_whole(cmd->add_option("--runs", o->runs, "Measured real runs per case; the real makespan is their median.")
                  ->type_name("N")
                  ->capture_default_str(),
              1, 100);
  takes_whole(cmd->add_option("--warmup", o->warmup, "Real runs per case before the measured ones, discarded.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 100);
  takes_whole(cmd->add_option("--reruns", o->reruns,
                              "Extra rounds, at most, re-running the cases whose runs found the host in another state "
                              "than the model's (0: none). Such runs count only if no run of the matrix found the model's state.")
                  ->type_name("N")
                  ->capture_default_str(),
              0, 100);
  cmd->add_option("--order", o->order,
                  "rounds: each round runs every case once (a case's runs minutes apart, so a slow spell of the host "
                  "hits one run of many cases); cases: a case's runs one after another.")
      ->type_name("ORDER")
      ->check(CLI::IsMember({"rounds", "cases"}))
      ->capture_default_str();
  cmd->add_option("--param", o->params,
                  "Set a workload parameter in every scenario, checked like a [workload] key; repeat for more.")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  o->seed_opt = cmd->add_option("--seed", o->seed, "Seed for every scenario (default: each scenario's own).")->type_name("N");
  takes_whole(o->seed_opt, 0, UINT64_MAX);
  takes_tolerance(cmd->add_option("--tolerance", o->tolerance,
                                  "Exit 1 when the median |makespan error| over the cases exceeds this: 10%, 10 or 0.1.")
                      ->type_name("PCT"));
  takes_tolerance(cmd->add_option("--worst-tolerance", o->worst_tolerance,
                                  "Exit 1 when the largest |makespan error| exceeds this.")
                      ->type_name("PCT"));
  cmd->add_flag("--json", o->json, "Print one JSON object (setup, every case, summary) instead of tables.");
  cmd->add_flag("--markdown", o->markdown, "Print the tables in Markdown, for a report (not with --json).");
  cmd->add_option("--report", o->report, "Also write the makespan errors as an HTML page: a bar per case, the 10% and 25% bands.")
      ->type_name("FILE");
  cmd->callback([&chosen, o] { chosen = [o] { return accuracy(*o); }; });
}

}  // namespace twinsched::cli
