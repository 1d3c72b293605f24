// `twinsched sim`: run a scenario on a simulated machine (one process per simulation), print the summary or a scaling table.
#include <cinttypes>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress.hpp"
#include "cli/scenario_flags.hpp"
#include "cli/schedule_flags.hpp"
#include "cli/sim_progress.hpp"
#include "cli/summary.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"
#include "sim/run_sim.hpp"
#include "traces/output_file.hpp"
#include "viz/scaling_report.hpp"

namespace twinsched::cli {

/// `twinsched list machines` (and `twinsched sim --list-machines`): every machine with its shape.
int print_machines(std::ostream& out) {
  out << "stock machines in " << stock_machine_folder() << " (`default` is also built in):\n";
  for (const auto& name : machine_names()) {
    try {
      machine_model m = load_machine(name);
      char shape[96];
      std::snprintf(shape, sizeof shape, "%u x %u cores, %.2f GHz", m.sockets, m.cores_per_socket, m.clock_ghz);
      out << "  " << std::left << std::setw(16) << name << std::setw(28) << shape << m.description << '\n';
    } catch (const machine_error& e) {
      out << "  " << std::left << std::setw(16) << name << "(does not load: " << e.what() << ")\n";
    }
  }
  return 0;
}

namespace {

struct sim_cli {
  std::string file;
  scenario_flags flags;
  schedule_flags schedule;
  std::string cores_text;
  sim_options opt;
  bool json = false, determinism = false, list_machines = false;
  std::string report;  ///< --report: the table as an HTML page
  CLI::Option* cores_opt = nullptr;
};

/// "16" or "1,2,4" -> the core counts, each 1..cores_limit; throws std::invalid_argument.
std::vector<std::uint32_t> parse_cores(const std::string& text) {
  std::vector<std::uint32_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) v.push_back(std::uint32_t(parse_whole(item, 1, cores_limit)));
  if (v.empty() || text.back() == ',') throw std::invalid_argument("no core count");
  return v;
}

/// Runs one simulation (twice with --check-determinism); the first difference between the
/// two ("" if none, or if it ran once).
std::string run_one(const scenario& s, const sim_options& o, bool twice, sim_result& out, progress& p) {
  const std::string what = s.name + " on " +
                           (o.cores == 1 ? "1 core" : o.cores ? std::to_string(o.cores) + " cores" : "the machine's cores");
  out = simulate_with_progress(p, s, o, what);
  if (!twice) return {};
  sim_result again = simulate_with_progress(p, s, o, what + " (again)");
  auto d = differences(out, again);
  if (d.empty()) return {};
  std::string first = d.front() + (d.size() > 1 ? " (and " + std::to_string(d.size() - 1) + " more fields)" : "");
  std::cerr << "twinsched: NOT DETERMINISTIC: " << s.name << " on " << o.cores << " cores: two runs differ at " << first
            << '\n';
  return first;
}

/// --check-determinism's verdict on one simulation, as the summary's line says it.
std::string determinism_line(const std::string& difference) {
  return difference.empty() ? "OK: ran twice, same result and event hash" : "FAIL: the two runs differ at " + difference;
}

/// The scaling table's title and column names.
std::string table_header(const scenario& s0, const sim_result& r0, const std::string& interleave) {
  std::ostringstream o;
  o << "scenario " << s0.name << ", " << s0.workload << ", policy " << s0.sched.policy << ", idle "
    << s0.sched.idle.strategy << ", machine " << r0.machine << ", interleave " << interleave << "\n";
  o << std::right << std::setw(6) << "cores" << std::setw(9) << "workers" << std::setw(14) << "simulated s"
    << std::setw(15) << "sim msgs/s" << std::setw(9) << "speedup" << std::setw(10) << "real s" << std::setw(14)
    << "sim msgs/real" << "  verdict  event hash";
  return o.str();
}

/// One row of the scaling table (and its errors, if it failed); `base` is the first row's msgs/s.
std::string table_row(const scenario& si, const sim_result& r, double base) {
  std::ostringstream o;
  o << std::right << std::setw(6) << r.cores << std::setw(9) << si.sched.workers << std::setw(14) << fixed(r.sim_s, 6)
    << std::setw(15) << fixed(r.run.msgs_per_s(), 0) << std::setw(9)
    << fixed(base > 0 ? r.run.msgs_per_s() / base : 0, 2) << std::setw(10) << fixed(r.real_s, 2) << std::setw(14)
    << fixed(r.sim_msgs_per_real_s(), 0) << "  " << (r.ok() ? "OK     " : "FAIL   ") << "  " << hex64(r.event_hash);
  if (!r.ok())
    for (auto& e : r.run.errors) o << "\n        " << e;
  return o.str();
}

int run(const sim_cli& c) {
  if (c.list_machines) return print_machines(std::cout);
  scenario s = c.file.empty() ? load_default_scenario() : load_scenario(c.file);
  c.flags.apply(s);
  std::vector<std::uint32_t> cores = given(c.cores_opt) ? parse_cores(c.cores_text) : std::vector<std::uint32_t>{0};
  if (!c.opt.trace_path.empty() && cores.size() != 1)
    throw scenario_error("command line", 0, 0, "--trace records one simulation: give a single --cores value");
  if (!c.opt.trace_path.empty() && c.determinism)
    throw scenario_error("command line", 0, 0, "--trace and --check-determinism together would write the trace twice");
  const std::vector<std::string> inputs{c.file, c.opt.machine.empty() ? s.machine : c.opt.machine};
  if (!c.opt.trace_path.empty()) files::check_output(c.opt.trace_path, "--trace", inputs);
  if (!c.report.empty()) {
    files::check_output(c.report, "--report", inputs);
    if (files::same_file(c.report, c.opt.trace_path))
      throw files::path_error("--report " + c.report + " and --trace " + c.opt.trace_path + " name the same file");
  }

  sim_options opts = c.opt;
  try {
    opts.schedule = c.schedule.resolve();
  } catch (const std::invalid_argument& e) {
    throw scenario_error("command line", 0, 0, e.what());
  }
  std::vector<std::pair<scenario, sim_result>> results;
  std::vector<std::string> differing;  // per result, with --check-determinism: its first difference
  bool deterministic = true;
  progress bar("sim", progress::mode_for(c.json));
  const bool table = !c.json && cores.size() > 1;  // a scaling table prints each row as its simulation ends
  for (std::uint32_t n : cores) {
    scenario si = s;
    // One worker per modeled core unless --workers says otherwise.
    if (!given(c.flags.workers_opt) && n) si.sched.workers = n;
    sim_options o = opts;
    o.cores = n;
    try {
      validate(si);
    } catch (const config_error& e) {
      throw scenario_error("command line", 0, 0, e.what());
    }
    sim_result r;
    differing.push_back(run_one(si, o, c.determinism, r, bar));
    deterministic = deterministic && differing.back().empty();
    results.emplace_back(si, r);
    if (table) {
      if (results.size() == 1) bar.print(std::cout, table_header(si, r, c.opt.interleave));
      bar.print(std::cout, table_row(si, r, results[0].second.run.msgs_per_s()));
    }
  }
  bar.finish();

  bool all_ok = true;
  for (auto& [si, r] : results) all_ok = all_ok && r.ok();
  auto json_of = [&](std::size_t i) {
    nlohmann::json j = sim_json(results[i].first, results[i].second);
    if (c.determinism)
      j["determinism"] = {{"checked", true}, {"identical", differing[i].empty()}, {"first_difference", differing[i]}};
    return j;
  };
  if (c.json) {
    if (results.size() == 1) {
      std::cout << json_of(0).dump(2) << '\n';
    } else {
      nlohmann::json a = nlohmann::json::array();
      for (std::size_t i = 0; i < results.size(); ++i) a.push_back(json_of(i));
      std::cout << a.dump(2) << '\n';
    }
  } else if (results.size() > 1 && c.determinism) {  // under the table
    std::string failed;
    for (std::size_t i = 0; i < results.size(); ++i)
      if (!differing[i].empty()) failed += (failed.empty() ? "" : ", ") + std::to_string(results[i].second.cores);
    std::cout << "determinism   "
              << (failed.empty() ? "OK: every simulation ran twice, same result and event hash"
                                 : "FAIL: the two runs differ on " + failed + " cores (stderr says where)")
              << '\n';
  } else if (results.size() == 1) {
    print_summary(std::cout, results[0].first, results[0].second.run);
    print_sim_lines(std::cout, results[0].second);
    if (c.determinism) std::cout << "determinism   " << determinism_line(differing[0]) << '\n';
    if (opts.schedule.active()) {
      const auto& pre = results[0].second.preemptions;
      std::cout << "schedule      " << describe_schedule(opts.schedule) << ": " << pre.size() << " preemptions applied\n";
      if (pre.size() <= 20)
        for (const auto& p : pre) std::cout << "                " << describe_preemption(p) << '\n';
    }
  }
  if (!c.report.empty()) {  // the table as a chart: one curve for this policy over the core counts
    std::vector<viz::scaling_point> pts;
    for (auto& [si, r] : results) pts.push_back({si.sched.policy, r.cores, r.sim_s, r.run.msgs_per_s()});
    files::output_file page(c.report);
    viz::write_scaling_report(page.stream(), "twinsched sim: " + s.name + " on " + results[0].second.machine,
                              "simulated; " + s.sched.policy + ", idle " + s.sched.idle.strategy, pts);
    page.commit();
  }
  if (!deterministic) return 1;
  return all_ok ? 0 : 1;
}

constexpr const char* sim_footer = R"(Flags beat the scenario file; the file beats the defaults shown above.
--cores N simulates N modeled cores with one worker each (unless --workers); without --cores
the machine's own core count and the scenario's workers are used. With more workers than
cores, workers share cores (worker i runs on core i mod cores). A --cores list prints each
row of its table as that simulation ends. On a terminal, a simulation that takes more than a
second shows a progress line on stderr: the simulated time reached, the messages processed
(of those the workload expects) and the real time taken; none under --json or when stderr
is not a terminal. The simulation reports at simulated-time steps, never by a clock: a
result is the same with the line shown or not.
Examples:
  twinsched sim forward --cores 16
  twinsched sim forward --machine xeon-2s-32c --policy shared-queue
  twinsched sim forward --cores 1,2,4,8,16 --param hops=2000                    a scaling table
  twinsched sim sim_spin_vs_park --cores 2 --workers 8 --idle busy-spin
  twinsched sim pi --check-determinism --json
  twinsched list machines
Exit codes: 0 the verdict is OK, 1 it failed (checksum, message count, the workload's own
check, a behavior threw, or the run hit --time-limit; or --check-determinism found a
difference), 2 the scenario, machine file or a flag is invalid.)";

}  // namespace

void add_sim_command(CLI::App& app, action& chosen) {
  auto c = std::make_shared<sim_cli>();
  CLI::App* cmd = app.add_subcommand(
      "sim", "Run a scenario on a simulated multicore machine (SimGrid): same policies, modeled cache and sync costs, "
             "deterministic; one process per simulation.");
  cmd->footer(sim_footer);
  cmd->add_option("scenario", c->file, scenario_help)->type_name("SCENARIO");
  c->cores_opt = cmd->add_option("--cores", c->cores_text,
                                 "Modeled cores (1.." + std::to_string(cores_limit) +
                                     " each): N, or a comma-separated list for a scaling table (one simulation "
                                     "process each). Default: the machine's core count.")
                     ->type_name("N|LIST");
  takes(c->cores_opt, "N or a comma-separated list of N, each 1.." + std::to_string(cores_limit),
        [](const std::string& text) { parse_cores(text); });
  cmd->add_option("--machine", c->opt.machine,
                  std::string(machine_help) + " Default: the scenario's `machine`.")
      ->type_name("MACHINE");
  cmd->add_option("--interleave", c->opt.interleave,
                  "coarse: workers yield to the simulation once per quantum and whenever they block; fine: at every "
                  "atomic operation (slower; for exploring interleavings).")
      ->type_name("MODE")
      ->check(CLI::IsMember({"coarse", "fine"}))
      ->capture_default_str();
  cmd->add_option("--context-factory", c->opt.context_factory, "SimGrid context factory; results are identical under each.")
      ->type_name("F")
      ->check(CLI::IsMember({"raw", "boost", "ucontext", "thread"}))
      ->capture_default_str();
  takes(cmd->add_option("--quantum-ns", c->opt.quantum_ns,
                        "Coarse interleaving: how far (simulated ns) a worker may run ahead of the clock before it "
                        "yields. 0: the machine's quantum_ns.")
            ->type_name("NS"),
        "a number of simulated ns, 0 or more", [](const std::string& text) { parse_decimal(text, true); });
  takes(cmd->add_option("--time-limit", c->opt.time_limit_s,
                        "Simulated seconds after which a run counts as hung (a lost wake-up or a livelock).")
            ->type_name("S")
            ->capture_default_str(),
        "a number of simulated seconds above 0", [](const std::string& text) { parse_decimal(text, false); });
  c->flags.add_to(*cmd, "Worker threads (S4U actors). Default: one per modeled core.");
  c->schedule.add_to(*cmd, false);
  cmd->add_option("--trace", c->opt.trace_path,
                  "Record the simulation's trace to FILE (.tst, exact simulated times; level: the scenario's "
                  "`trace`, else full). One --cores value only.")
      ->type_name("FILE");
  takes_whole(cmd->add_option("--max-operations", c->opt.max_points,
                              "Platform operations after which a run counts as livelocked (0: no limit; explore sets it).")
                  ->type_name("N"),
              0, UINT64_MAX);
  cmd->add_flag("--check-determinism", c->determinism,
                "Run every simulation twice and fail (exit 1) at the first difference in result or event hash.");
  cmd->add_flag("--json", c->json, "Print one JSON object (an array for a --cores list) instead of text.");
  cmd->add_option("--report", c->report, "Also write the scaling table as an HTML page (speed-up and msgs/s over --cores).")
      ->type_name("FILE");
  cmd->add_flag("--list-machines", c->list_machines, "List the machine models and exit (same as `twinsched list machines`).");
  cmd->callback([&chosen, c] { chosen = [c] { return run(*c); }; });
}

}  // namespace twinsched::cli
