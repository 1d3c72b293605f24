// Simulating a scenario: its workload and scheduler over the SimGrid platform, each simulation in its own process.
#include "run_sim.hpp"

#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "cost_model.hpp"
#include "machine_model.hpp"
#include "replay_policy.hpp"
#include "run/live_runs.hpp"
#include "run/run_pipeline.hpp"
#include "sim_platform.hpp"
#include "sim_process.hpp"
#include "traces/scenario_text.hpp"

namespace twinsched {

// ---- JSON (the pipe format) ----

// nlohmann's macros write both directions from one field list, so the two cannot drift;
// every key is required when reading (a truncated pipe fails loudly). per_actor is not sent.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(worker_stats, messages, turns, steals, parks, wakeups, donations, migrations, busy_ns,
                                   idle_ns, parked_ns, cpu_ns)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(latency_summary, count, mean_ns, p50_ns, p99_ns, p999_ns, max_ns)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(run_result, scenario, backend, policy, idle, workload, workers, messages,
                                   expected_messages, dead_letters, leftover, wall_s, per_worker, checksum, reference,
                                   detail, errors, workload_ok, thread_timeline, peak_workers, final_workers,
                                   scale_up_s, request_latency, scheduling_delay, scheduling_sample, timers,
                                   timer_late_mean_ns, timer_late_max_ns)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(replay_log, recorded, followed, skipped, reordered, free_turns, exact, inexact, passed,
                                   adopted, diverged, ran_out, notes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(preemption, worker, op, delay_ns, where)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(cost_report, source, charged_turns, charged_ns, unprofiled_turns, unprofiled_kinds)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(sim_result, run, machine, interleave, context_factory, cores, sim_s, real_s,
                                   event_hash, flushes, lookahead_skips, hand_offs, holds, blocks, contended_locks, migrations,
                                   aborted, replay, points, preemptions, costs)

std::string to_json_text(const sim_result& r) { return nlohmann::json(r).dump(); }

sim_result from_json_text(const std::string& text) { return nlohmann::json::parse(text).get<sim_result>(); }

// ---- the progress channel: how far a simulation process has got, for its parent ----
//
// Protocol. The child reports in one page of memory shared with its parent (an anonymous
// MAP_SHARED mapping made before the fork), not over a pipe: the parent wants only the
// latest figures, whenever it looks (a progress line, four times a second), so the child
// overwrites a few counters with relaxed stores. No system call, nothing that blocks when
// the parent never reads (explore, sweep and simulate() do not), no format, no history. The
// counters are lock-free, hence address-free, atomics, valid across the two processes; the
// parent may see one counter a report newer than another, which a progress line tolerates.
//
// Determinism. The child reports at every 64th advance of simulated time (SimGrid's
// on_time_advance, fired by the engine in maestro between two simulation steps; a forward
// run advances about once per flush, 2 us of real time, so reports stay far fresher than a
// line drawn 4 times a second, and cost nothing measurable): points the simulation fixes,
// not a clock. A report reads nothing that charges a cost or takes a scheduling
// point (the workers' plain worker_stats counters, the replay script's ordinals, the engine
// clock: never a simulated atomic, whose load charges) and writes nothing the simulation
// reads, so a run is the same whether anyone looks or not. Every simulation process reports,
// whether its parent shows progress or not.
// (progress_page: sim_process.hpp)

namespace {

/// The child's side of the channel: its page, and what to read while the scheduler exists.
struct progress_reporter {
  progress_page* page = nullptr;
  std::function<std::uint64_t()> messages, turns;  // empty outside the scheduler's life
  std::uint64_t advances = 0;
  void on_time_advance() {
    if (!page || ++advances % 64 != 0) return;
    page->sim_ns.store(std::uint64_t(simgrid::s4u::Engine::get_clock() * 1e9), std::memory_order_relaxed);
    if (messages) page->messages.store(messages(), std::memory_order_relaxed);
    if (turns) page->turns.store(turns(), std::memory_order_relaxed);
  }
};
progress_reporter reporter;  // one simulation at a time per process: one reporter

}  // namespace

namespace sim_process {

void check_options(const sim_options& o) {
  if (o.interleave != "coarse" && o.interleave != "fine")
    throw config_error("interleave must be \"coarse\" or \"fine\", not '" + o.interleave + "'");
  const std::string& f = o.context_factory;
  if (f != "raw" && f != "boost" && f != "ucontext" && f != "thread")
    throw config_error("unknown context factory '" + f + "' (known: raw, boost, ucontext, thread)");
  if (o.cores > sim_detail::core_set::max_cores)
    throw config_error("cores: the simulator's cache model tracks at most " + std::to_string(sim_detail::core_set::max_cores) +
                       " modeled cores, not " + std::to_string(o.cores));
  if (o.quantum_ns < 0) throw config_error("quantum_ns must not be negative");
  if (!(o.time_limit_s > 0)) throw config_error("the simulated time limit must be positive");
  const schedule_spec& sc = o.schedule;
  if (sc.strategy != "none" && sc.strategy != "random" && sc.strategy != "pct" && sc.strategy != "list")
    throw config_error("unknown schedule strategy '" + sc.strategy + "' (known: random, pct, list)");
  if (!(sc.p >= 0 && sc.p <= 1)) throw config_error("the preemption probability must lie in [0, 1]");
  if (sc.depth < 1) throw config_error("the PCT depth must be at least 1");
  if (!(sc.min_delay_ns > 0 && sc.max_delay_ns >= sc.min_delay_ns)) throw config_error("preemption delays: need 0 < min <= max");
}

const std::string& machine_spec(const scenario& s, const sim_options& o) { return o.machine.empty() ? s.machine : o.machine; }

void check_scenario(const scenario& s) {
  validate(s);
  check_memory(s, physical_memory_bytes());  // the simulation runs in this machine's memory
}

machine_model checked(const scenario& s, const sim_options& o) {
  check_scenario(s);
  check_options(o);
  return load_machine(machine_spec(s, o));
}

}  // namespace sim_process

using namespace sim_process;

namespace {

/// The simulated backend of run_pipeline: exact simulated times, the scheduler inside the
/// SimGrid engine, a replay's wrapped policy, the progress channel.
struct sim_backend {
  sim_backend(const sim_options& opts, const machine_model& model, sim_platform& platform, progress_page* progress)
      : o(opts), m(model), plat(platform), page(progress) {}

  const sim_options& o;
  const machine_model& m;
  sim_platform& plat;
  progress_page* page;
  trace_level level = trace_level::off;
  std::unique_ptr<traces::trace_reader> recorded;  // a replay's trace, and its script
  std::unique_ptr<replay_script> script;
  double real_s = 0;

  workload_params params_of(const workload_info& info, const scenario& s) const {
    return with_machine_kernels(info, s.workload_params, m);
  }

  /// Exact simulated times, no clock (traces/recorder.hpp); every worker slot gets a lane.
  std::unique_ptr<traces::recorder> open_trace(const scenario& s, const workload&) {
    level = s.trace;
    if (o.trace_path.empty()) return nullptr;
    if (level == trace_level::off) level = trace_level::full;
    traces::trace_header h = traces::header_for(s, "sim", m.name, std::max(s.sched.workers, s.sched.max_workers), level);
    h.sim_cores = plat.cores();  // everything `replay` needs to simulate this run again
    h.sim_interleave = o.interleave;
    h.sim_quantum_ns = o.quantum_ns;
    h.sim_machine_spec = o.machine.empty() ? s.machine : o.machine;
    h.sim_schedule = describe_schedule(o.schedule);
    // Write as the run goes where the machine has more hardware threads than the scenario
    // has workers, else after it. Only the file's timing depends on it, never the simulation.
    traces::recorder_options ro;
    ro.mode = std::thread::hardware_concurrency() > h.workers ? traces::writer_mode::concurrent
                                                              : traces::writer_mode::deferred;
    return std::make_unique<traces::recorder>(o.trace_path, h, nullptr, ro);
  }

  /// A replay follows a trace's decisions: the recorded policy, wrapped (replay_policy.hpp).
  void open_replay(const scenario& s) {
    if (o.replay_from.empty()) return;
    recorded = std::make_unique<traces::trace_reader>(o.replay_from);
    const unsigned lanes = std::max(s.sched.workers, s.sched.max_workers);
    script = std::make_unique<replay_script>(*recorded, lanes, plat);
    if (!page) return;
    page->recorded_turns.store(script->log().recorded, std::memory_order_relaxed);
    reporter.turns = [this, lanes] {
      std::uint64_t n = 0;
      for (unsigned i = 0; i < lanes; ++i) n += script->next_ordinal(i) - 1;
      return n;
    };
  }

  run_result run(const scenario& s, std::unique_ptr<workload>& w, traces::recorder* rec) {
    plat.attach_trace(rec);
    if (page) {
      reporter.page = page;
      page->expected_messages.store(w->expected_messages(), std::memory_order_relaxed);
      static const bool listening = [] {  // once per process, however many runs it makes
        simgrid::s4u::Engine::on_time_advance_cb([](double) { reporter.on_time_advance(); });
        return true;
      }();
      (void)listening;
      sim_detail::g.on_clock_moved = [] { reporter.on_time_advance(); };  // the lookahead's moves, too
    }
    // Wall time of the simulation itself: a measurement of the simulator, never an input to it.
    const auto t0 = std::chrono::steady_clock::now();
    open_replay(s);
    auto around = [&](auto& sched) {
      plat.set_state_report([&] { return sched.state_report(); });  // for the time limit's hang report
      reporter.messages = [&sched] {  // plain reads: see the progress channel above
        std::uint64_t n = 0;
        for (unsigned i = 0; i < sched.slots(); ++i) n += sched.worker_at(i).stats().messages;
        return n;
      };
      run_result out = sched.run(*w);
      reporter.messages = nullptr;
      plat.set_state_report({});
      return out;
    };
    run_result r;
    plat.run([&] {
      r = script ? run_policy<sim_platform, replay_policy>(plat, s.sched, s.seed, level, around, *script)
                 : run_policy(plat, s.sched, s.seed, level, around);
    });
    real_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    reporter = progress_reporter{};  // an aborted run's scheduler is never unwound: stop reading it now
    const sim_stats& st = plat.stats();
    if (st.aborted) r = aborted_result(s, st, w);
    r.backend = sim_platform::backend_name;  // also on the aborted path, which skipped collect()
    for (const auto& e : st.errors) r.errors.push_back("simulation: " + e);
    return r;
  }

  /// The driver never returned: the scheduler (on its stack) and the workload stay alive,
  /// untouched, since halted workers may still point into them.
  static run_result aborted_result(const scenario& s, const sim_stats& st, std::unique_ptr<workload>& w) {
    run_result r;
    r.policy = s.sched.policy;
    r.idle = s.sched.idle.strategy;
    r.workers = s.sched.workers;
    r.expected_messages = w->expected_messages();
    r.workload_ok = false;
    r.wall_s = st.sim_ns * 1e-9;
    (void)w.release();
    return r;
  }

  void trace_finished(traces::recorder&) {}
};

}  // namespace

sim_config sim_process::config_of(const sim_options& o) {
  sim_config c;
  c.cores = o.cores;
  c.fine = o.interleave == "fine";
  c.context_factory = o.context_factory;
  c.quantum_ns = o.quantum_ns;
  c.time_limit_s = o.time_limit_s;
  c.schedule = o.schedule;
  c.max_points = o.max_points;
  c.lookahead = o.lookahead;
  return c;
}

sim_result sim_process::simulate_reporting(const scenario& s, const sim_options& o, const machine_model& m, progress_page* page) {
  sim_platform plat(m, config_of(o));
  std::unique_ptr<cost_charger> charger;
  if (o.costs) {
    charger = std::make_unique<cost_charger>(*o.costs, std::max(s.sched.workers, s.sched.max_workers), s.seed);
    plat.set_turn_costs(charger.get());
  }
  sim_backend b{o, m, plat, page};
  sim_result out;
  out.run = run_pipeline(b, s);
  if (charger) out.costs = charger->report(o.costs_source);
  const sim_stats& st = plat.stats();
  out.machine = m.name;
  out.interleave = o.interleave;
  out.context_factory = o.context_factory;
  out.cores = plat.cores();
  out.sim_s = out.run.wall_s;
  out.real_s = b.real_s;
  out.event_hash = st.event_hash;
  out.flushes = st.flushes;
  out.lookahead_skips = st.lookahead_skips;
  out.hand_offs = st.hand_offs;
  out.holds = st.holds;
  out.blocks = st.blocks;
  out.contended_locks = st.contended_locks;
  out.migrations = st.migrations;
  out.aborted = st.aborted;
  out.points = st.points;
  out.preemptions = st.preemptions;
  if (b.script) out.replay = b.script->log();
  return out;
}

int sim_process::result_text(const scenario& s, const sim_options& o, const machine_model& m, progress_page* page,
                             std::string& text) {
  try {
    text = to_json_text(simulate_reporting(s, o, m, page));
    return 0;
  } catch (const config_error& e) {
    text = nlohmann::json{{"config_error", e.what()}}.dump();
  } catch (const std::exception& e) {
    text = nlohmann::json{{"error", e.what()}}.dump();
  }
  return 3;
}

bool sim_process::write_all(int fd, const char* p, std::size_t left) {
  while (left > 0) {
    // send() on a socket (a batch's runner): a peer that is gone is an error, not SIGPIPE
    ssize_t n = ::send(fd, p, left, MSG_NOSIGNAL);
    if (n < 0 && errno == ENOTSOCK) n = ::write(fd, p, left);  // a pipe (one simulation's child)
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {  // a non-blocking descriptor, full
      pollfd w{fd, POLLOUT, 0};
      ::poll(&w, 1, -1);
      continue;
    }
    if (n <= 0) return false;
    p += n;
    left -= std::size_t(n);
  }
  return true;
}

progress_page* sim_process::map_progress_page() {
  void* shared = ::mmap(nullptr, sizeof(progress_page), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) throw std::runtime_error(std::string("mmap: ") + std::strerror(errno));
  return new (shared) progress_page;
}

sim_result simulate_in_this_process(const scenario& s, const sim_options& o) {
  return simulate_reporting(s, o, checked(s, o), nullptr);
}

namespace {
/// The simulation of checked inputs in a child process (start_simulation's second half).
running_simulation fork_simulation(const scenario& s, const sim_options& o, const machine_model& m) {
  progress_page* page = map_progress_page();
  int fd[2];
  if (::pipe(fd) != 0) {
    ::munmap(page, sizeof(progress_page));
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  // The child runs a whole simulation, not an exec, so it needs the allocator, whose locks
  // another thread of this process could hold at the fork (glibc's malloc has fork handlers;
  // GCC 12's libasan has none for its allocator). Hence no thread that may allocate lives
  // at a fork: callers join theirs first (the progress ticker, a real run's workers and trace
  // writer), and a deadline's watcher (run/deadline.cpp) is parked in its wait.
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) {
    ::munmap(page, sizeof(progress_page));
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fd[0]);
    std::string text;
    const int rc = result_text(s, o, m, page, text);
    if (!write_all(fd[1], text.data(), text.size())) ::_exit(4);
    ::close(fd[1]);
    ::_exit(rc);  // no destructors: SimGrid's engine is never torn down
  }
  ::close(fd[1]);
  running_simulation r;
  r.pid = pid;
  r.fd = fd[0];
  r.page = page;
  return r;
}
}  // namespace

running_simulation start_simulation(const scenario& s, const sim_options& o) {
  return fork_simulation(s, o, checked(s, o));  // bad scenarios, options and machine files fail here, in the parent
}


sim_progress progress_of(const running_simulation& r) {
  sim_progress p;
  if (!r.page) return p;
  const auto get = [](const std::atomic<std::uint64_t>& a) { return a.load(std::memory_order_relaxed); };
  p.sim_s = double(get(r.page->sim_ns)) * 1e-9;
  p.messages = get(r.page->messages);
  p.expected_messages = get(r.page->expected_messages);
  p.turns = get(r.page->turns);
  p.recorded_turns = get(r.page->recorded_turns);
  return p;
}

bool read_available(running_simulation& r) {
  if (r.runner) return batch_runner_read(r);
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(r.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    if (n <= 0) return true;
    r.text.append(buf, std::size_t(n));
  }
}

sim_result finish_simulation(running_simulation& r) {
  if (r.runner) return batch_runner_finish(r);
  while (!read_available(r)) {
  }
  ::close(r.fd);
  r.fd = -1;
  if (r.page) ::munmap(const_cast<progress_page*>(r.page), sizeof(progress_page));
  r.page = nullptr;
  int status = 0;
  while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    throw std::runtime_error("simulation process died of signal " + std::to_string(WTERMSIG(status)) + " (" +
                             strsignal(WTERMSIG(status)) + ")");
  if (r.text.empty())
    throw std::runtime_error("simulation process exited with code " + std::to_string(WEXITSTATUS(status)) + " and no result");
  return parse_result(r.text);
}

sim_result sim_process::parse_result(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text);
  if (j.contains("config_error")) throw config_error(j["config_error"].get<std::string>());
  if (j.contains("error")) throw std::runtime_error("simulation failed: " + j["error"].get<std::string>());
  return j.get<sim_result>();
}

namespace {
/// What the kernel says a stuck simulation process is doing: its state, the kernel function
/// it sleeps in and its system call (number and arguments: 202 is futex, a lock). A hung
/// child reports this, so a hang seen once in CI leaves evidence of where it waited.
std::string process_state(pid_t pid) {
  auto first_line = [&](const char* what) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/" + what);
    std::string line;
    std::getline(f, line);
    return line.empty() ? std::string("?") : line;
  };
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line, state = "?";
  while (std::getline(status, line))
    if (line.rfind("State:", 0) == 0) {
      const std::size_t from = line.find_first_not_of(" \t", 6);
      if (from != std::string::npos) state = line.substr(from);
    }
  return "  its process: state " + state + ", waits in " + first_line("wchan") + ", system call " + first_line("syscall") + "\n";
}

}  // namespace

sim_result sim_process::watched(const scenario& s, const sim_options& o, running_simulation r) {
  // While it runs, a deadline that expires (run/deadline.hpp) says what it is and kills
  // it, so that a hung simulation cannot outlive the process that waits for it.
  live_runs::registration live(
      [&] {
        return "simulation process " + std::to_string(r.pid) + ": scenario " + s.name + ", policy " + s.sched.policy +
               ", " + std::to_string(s.sched.workers) + " workers on " + std::to_string(o.cores) + " cores (0: the machine's)\n" +
               process_state(r.pid);
      },
      [pid = r.pid] { ::kill(pid, SIGKILL); });
  return finish_simulation(r);
}

sim_result simulate(const scenario& s, const sim_options& o) { return watched(s, o, start_simulation(s, o)); }

std::vector<std::string> differences(const sim_result& a, const sim_result& b) {
  std::vector<std::string> d;
  auto cmp = [&](const std::string& what, auto x, auto y) {
    if (x != y) d.push_back(what + ": " + nlohmann::json(x).dump() + " vs " + nlohmann::json(y).dump());
  };
  cmp("event_hash", a.event_hash, b.event_hash);
  cmp("simulated time (s)", a.sim_s, b.sim_s);
  cmp("messages", a.run.messages, b.run.messages);
  cmp("checksum", a.run.checksum, b.run.checksum);
  cmp("dead_letters", a.run.dead_letters, b.run.dead_letters);
  cmp("leftover", a.run.leftover, b.run.leftover);
  cmp("errors", a.run.errors, b.run.errors);
  cmp("detail", a.run.detail, b.run.detail);
  cmp("flushes", a.flushes, b.flushes);
  cmp("blocks", a.blocks, b.blocks);
  cmp("contended_locks", a.contended_locks, b.contended_locks);
  cmp("migrations", a.migrations, b.migrations);
  cmp("aborted", a.aborted, b.aborted);
  cmp("workers", a.run.per_worker.size(), b.run.per_worker.size());
  for (std::size_t i = 0; i < a.run.per_worker.size() && i < b.run.per_worker.size(); ++i) {
    nlohmann::json x = a.run.per_worker[i], y = b.run.per_worker[i];
    if (x != y) d.push_back("worker " + std::to_string(i) + ": " + x.dump() + " vs " + y.dump());
  }
  return d;
}

}  // namespace twinsched
