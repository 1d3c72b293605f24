// Running a scenario in simulation: the SimGrid platform driving the scheduler, one process per simulation.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cost_charger.hpp"
#include "machine_model.hpp"
#include "models/config.hpp"
#include "models/run_result.hpp"
#include "replay_script.hpp"
#include "schedule.hpp"

namespace twinsched {

/// How to simulate: which machine, how many of its cores, how finely to interleave.
struct sim_options {
  std::uint32_t cores = 0;              ///< modeled cores; 0 = the machine's
  std::string machine;                  ///< name or path; empty = the scenario's
  std::string interleave = "coarse";    ///< coarse | fine
  std::string context_factory = "raw";  ///< raw | boost | ucontext | thread
  /// A flush SimGrid would only answer by resuming the same worker moves the clock without
  /// it (cost_model.cpp); false: every flush is a simcall. The same run either way.
  bool lookahead = true;
  double quantum_ns = 0;                ///< 0 = the machine's quantum_ns
  double time_limit_s = 3600;           ///< simulated seconds before a run is declared hung
  std::string trace_path;               ///< record a .tst trace here (level: the scenario's, else full)
  std::string replay_from;              ///< follow this trace's recorded decisions (replay_policy.hpp)
  schedule_spec schedule;               ///< preemptions to inject (explore; sim/schedule.hpp)
  std::uint64_t max_points = 0;         ///< platform operations before a run counts as livelocked (0: no limit)
  /// A behavior's own code, charged per turn from this profile (sim/cost_charger.hpp); null:
  /// a behavior costs what it declares (burn_ns, did_work_ns) and nothing for its own code.
  std::shared_ptr<const cost_profile> costs;
  std::string costs_source;             ///< where `costs` came from, for the result
};

/// One simulation's result: the scheduler's run_result (backend "sim", wall_s in SIMULATED
/// seconds) plus what only a simulation has.
struct sim_result {
  run_result run;
  std::string machine, interleave, context_factory;
  std::uint32_t cores = 0;
  double sim_s = 0;              ///< simulated seconds, workers' start to quiescence (= run.wall_s)
  double real_s = 0;             ///< wall-clock seconds the simulation took (engine run only)
  std::uint64_t event_hash = 0;  ///< hash of every scheduling point, block, wake and trace event, in order
  std::uint64_t flushes = 0;     ///< times a worker paid accumulated costs (yields)
  std::uint64_t lookahead_skips = 0;  ///< of those, paid without a simcall (sim_options::lookahead)
  std::uint64_t hand_offs = 0;   ///< of those, resumed the worker due next without SimGrid's solve (lookahead)
  std::uint64_t holds = 0;       ///< of those, waited without a SimGrid action (lookahead)
  std::uint64_t blocks = 0;      ///< times a worker blocked (lock or park)
  std::uint64_t contended_locks = 0;  ///< locks taken while another worker held them (sim_sync.hpp)
  std::uint64_t migrations = 0;  ///< turns on another core than their actor's last: its state migrated (charged)
  bool aborted = false;          ///< the run did not finish (errors say why); run holds partial counts
  replay_log replay;             ///< with sim_options::replay_from: what happened to the recorded decisions
  std::uint64_t points = 0;      ///< platform operations of all workers (the schedule's preemption points)
  std::vector<preemption> preemptions;  ///< what sim_options::schedule applied, in order
  cost_report costs;             ///< with sim_options::costs: what the profile charged

  /// Simulated messages per real second: how fast the simulator is.
  double sim_msgs_per_real_s() const { return real_s > 0 ? double(run.messages) / real_s : 0; }
  /// Simulated seconds per real second.
  double sim_over_real() const { return real_s > 0 ? sim_s / real_s : 0; }
  bool ok() const { return !aborted && run.ok(); }  ///< run_result::ok(), and the run finished
};

/// Validates `s` and `o` (throws config_error / machine_error), then runs the simulation in a
/// child process (fork) and returns its result. Throws std::runtime_error if the child dies.
sim_result simulate(const scenario& s, const sim_options& o);
/// How far a running simulation has got, as its process last reported (progress_of).
struct sim_progress {
  double sim_s = 0;                    ///< simulated seconds reached
  std::uint64_t messages = 0;          ///< messages processed so far
  std::uint64_t expected_messages = 0;  ///< the workload's expected count (0: unknown yet)
  std::uint64_t turns = 0;             ///< replay: recorded turns consumed so far
  std::uint64_t recorded_turns = 0;    ///< replay: the trace's recorded turns (0: not a replay)
};
struct progress_page;  ///< sim_process.hpp: the page a simulation process reports its progress in
struct batch_runner;   ///< sim_batch.cpp: a process that simulates a batch's runs one after another
/// A simulation running in its child process, for callers that run several at once
/// (explore): start it, poll `fd` and read_available() until it returns true, then finish.
struct running_simulation {
  int pid = -1;
  int fd = -1;       ///< the child's result pipe (make it non-blocking to poll several)
  std::string text;  ///< what has arrived so far
  const progress_page* page = nullptr;  ///< shared with the child (progress_of); unmapped by finish
  /// Set when a sim_batch's runner process simulates it: the result is one frame on its
  /// socket, and the process lives on for the batch's next run.
  std::shared_ptr<batch_runner> runner;
};
running_simulation start_simulation(const scenario& s, const sim_options& o);
/// Reads what the pipe holds now; true once the child has closed it (all of it arrived).
bool read_available(running_simulation& r);
/// What the child has reported so far (all zero before its first report): cheap, no system
/// call, any time between start_simulation and finish_simulation.
sim_progress progress_of(const running_simulation& r);
/// Waits for the child and returns its result; throws as simulate() does.
sim_result finish_simulation(running_simulation& r);
/// The same, in this process. SimGrid's engine exists once per process: a second call
/// throws std::logic_error unless the first run ended cleanly (sim_platform::can_simulate_again).
sim_result simulate_in_this_process(const scenario& s, const sim_options& o);

/// Many simulations on one machine, under options that differ in their schedule, limits and
/// trace path only: explore's search, reruns and shrinking (one scenario), or a sweep's cells of
/// one core count (several scenarios). What they share is done once: the machine file is loaded
/// and each scenario checked once. The runs go to runner processes forked from this one, one
/// per run at a time, each of which simulates one run after another in one SimGrid engine
/// (sim_platform resets it between them) until a run ends uncleanly (aborted, or an error),
/// after which the next run gets a new runner. Every run is the one a fresh process makes,
/// event hash included. The scenarios must outlive the batch.
class sim_batch {
 public:
  /// One scenario, checked here as start_simulation checks it (throws config_error /
  /// machine_error). SimGrid's engine and the modeled cores are made in this process
  /// (sim_platform::prepare), so a runner that replaces an ended one starts with them.
  sim_batch(const scenario& s, const sim_options& base);
  /// Several scenarios; each is checked at its first start(), so that one bad scenario fails
  /// its own runs only. The engine is made in each runner at its first run, not here: a process
  /// may hold several such batches, for different core counts (one engine per process).
  sim_batch(std::vector<const scenario*> scenarios, const sim_options& base);
  /// Ends the runners (each ends when its socket closes) and waits for them.
  ~sim_batch();
  sim_batch(const sim_batch&) = delete;
  sim_batch& operator=(const sim_batch&) = delete;
  /// start_simulation of scenario `which` (an index into the constructor's scenarios) for
  /// options whose machine, cores, context factory and costs are the base's (else
  /// std::logic_error), on an idle runner or a new one.
  running_simulation start(const sim_options& o, std::size_t which = 0) const;
  /// simulate() for such options.
  sim_result simulate(const sim_options& o, std::size_t which = 0) const;
  /// Runner processes forked so far (each replaces one whose run ended uncleanly, or runs
  /// beside the busy ones).
  std::size_t runners_forked() const { return forked_; }
  /// What a batch's runs share, as text: the machine, cores, context factory and cost
  /// profile. Runs with equal keys can go to one batch; start() refuses any other.
  static std::string engine_key(const scenario& s, const sim_options& o);

 private:
  std::shared_ptr<batch_runner> fork_runner() const;
  std::vector<const scenario*> s_;
  mutable std::vector<char> checked_;  ///< per scenario: its checks passed
  sim_options base_;
  std::string engine_;  ///< engine_key of the batch's runs
  machine_model machine_;
  mutable std::vector<std::shared_ptr<batch_runner>> runners_;
  mutable std::size_t forked_ = 0;
};

/// The fields that differ between two results of the same simulation, empty if none
/// (for --check-determinism: compares every counter, the checksum and the event hash).
std::vector<std::string> differences(const sim_result& a, const sim_result& b);

/// sim_result <-> JSON text (the pipe format between a simulation process and its parent).
std::string to_json_text(const sim_result& r);
sim_result from_json_text(const std::string& text);

}  // namespace twinsched
