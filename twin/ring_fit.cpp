// Calibration's fit: the calibration ring run on one real worker and simulated with the terms
// measured so far; what the simulation misses is solved for the worker loop's per-message and
// per-turn costs and, on rings too large for the caches, for the cost of a cold actor.
#include <unistd.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/workload/workload.hpp"
#include "runtime/run_threads.hpp"
#include "sim/run_sim.hpp"
#include "traces/output_file.hpp"
#include "twin/batch_stats.hpp"
#include "twin/calibration_ring.hpp"
#include "twin/calibration_steps.hpp"
#include "twin/host_probes.hpp"

namespace twinsched::calib {
namespace {

void write_machine_file(const std::filesystem::path& path, const calibration& c) {
  files::write_whole(path.string(), machine_toml(c));
}

struct ring_run {
  double real_ns = 0, sim_ns = 0;
  double messages = 0, turns = 0;
};

/// The ring's simulated time, ns, on one core of machine file `machine_path`.
double simulated_ns(const scenario& s, const std::string& machine_path) {
  sim_options o;
  o.cores = 1;
  o.machine = machine_path;
  sim_result sr = simulate(s, o);
  if (!sr.ok()) throw std::runtime_error("calibrate: the calibration ring failed in simulation");
  return sr.sim_s * 1e9;
}

/// The ring on one real worker (the least CPU time of `reps`, after one untimed run) and in simulation
/// on machine file `machine_path` (one core).
ring_run measure_ring(const scenario& s, const std::string& machine_path, int reps) {
  const workload_info& info = *find_workload(s.workload);
  // CPU time of this process over the run (the worker's, plus the driver's start-up, which is
  // small): what the run costs an undisturbed core. Wall time on a loaded machine counts the
  // other processes' time slices too, and a run of tens of ms cannot dodge them.
  auto cpu_ns = [] {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return (double(u.ru_utime.tv_sec) + double(u.ru_stime.tv_sec)) * 1e9 +
           (double(u.ru_utime.tv_usec) + double(u.ru_stime.tv_usec)) * 1e3;
  };
  double cpu = 0;
  auto once = [&] {
    auto w = info.make(with_defaults(info, s.workload_params), s.seed);
    double c0 = cpu_ns();
    run_result r = run_on_threads(s.sched, *w, s.seed);
    cpu = cpu_ns() - c0;
    if (!r.ok()) throw std::runtime_error("calibrate: the calibration ring failed on threads");
    return r;
  };
  once();
  ring_run out;
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    run_result r = once();
    t.push_back(std::min(cpu, r.wall_s * 1e9 * 1.05));  // CPU time; never much above the wall time
    out.messages = double(r.messages);
    out.turns = 0;
    for (auto& pw : r.per_worker) out.turns += double(pw.turns);
  }
  // The cheapest run: the one least disturbed by whatever else this machine runs (the
  // microbenchmarks' lower quartile of many batches serves the same end).
  out.real_ns = *std::min_element(t.begin(), t.end());
  out.sim_ns = simulated_ns(s, machine_path);
  return out;
}

/// A cache term's cost per touch: `ring` on one real worker against its simulation with
/// `term` at `baseline` (the cache model on, next to nothing charged), then simulated with
/// `term` at 1 us to count the touches it charges; the real time the simulation misses, per
/// touch, is the term (set in `term`). Writes, then removes, machine file `path`.
struct touch_cost {
  ring_run run;
  double touches = 0;
};
touch_cost cost_per_touch(const scenario& ring, const calibration& c, double& term, double baseline,
                          const std::filesystem::path& path, int reps) {
  touch_cost r;
  double counted = 0;
  try {
    term = baseline;
    write_machine_file(path, c);
    r.run = measure_ring(ring, path.string(), reps);
    term = 1000;
    write_machine_file(path, c);
    counted = simulated_ns(ring, path.string());
  } catch (...) {
    std::filesystem::remove(path);
    throw;
  }
  std::filesystem::remove(path);
  r.touches = (counted - r.run.sim_ns) / 1000;
  term = r.touches > 0 ? std::max(0.0, (r.run.real_ns - r.run.sim_ns) / r.touches) : 0;
  return r;
}

/// The per-message and per-turn costs from two ring shapes: real - sim = message * messages +
/// turn * turns for both (two equations, two unknowns), clamped at 0: a negative turn leaves all
/// to message, a negative message all to turn.
std::pair<double, double> solve_message_turn(const ring_run& a, const ring_run& b) {
  const double ra = a.real_ns - a.sim_ns, rb = b.real_ns - b.sim_ns;
  const double det = a.messages * b.turns - b.messages * a.turns;
  const bool solvable = std::abs(det) > 1e-9 * a.messages * b.messages;
  double msg = 0, turn = 0;
  if (solvable) {
    msg = (ra * b.turns - rb * a.turns) / det;
    turn = (a.messages * rb - b.messages * ra) / det;
  }
  if (turn < 0 || !solvable) {
    turn = 0;
    msg = (ra + rb) / (a.messages + b.messages);
  }
  if (msg < 0) {
    msg = 0;
    turn = std::max(0.0, (ra + rb) / (a.turns + b.turns));
  }
  return {msg, turn};
}

/// What every ring of one calibration shares: the scratch machine file, messages a run, repetitions.
struct ring_setup {
  std::filesystem::path path;
  std::int64_t msgs;
  int reps;
};

void measure_message_turn(calibration_run& run, const ring_setup& rs) {
  machine_model& m = run.model();
  m.message = m.turn = 0;
  write_machine_file(rs.path, run.c);
  ring_run a, b;
  try {
    a = measure_ring(ring_scenario({1024, 1}, rs.msgs), rs.path.string(), rs.reps);   // one message a turn
    b = measure_ring(ring_scenario({64, 2048}, rs.msgs), rs.path.string(), rs.reps);  // up to 16 a turn
  } catch (...) {
    std::filesystem::remove(rs.path);
    throw;
  }
  std::filesystem::remove(rs.path);
  std::tie(m.message, m.turn) = solve_message_turn(a, b);
  run.note(fmt("ring A (1024 actors, 1 token): %.0f messages in %.0f turns, real %.2f ms, simulated %.2f ms", a.messages,
               a.turns, a.real_ns * 1e-6, a.sim_ns * 1e-6));
  run.note(fmt("ring B (64 actors, 2048 tokens): %.0f messages in %.0f turns, real %.2f ms, simulated %.2f ms", b.messages,
               b.turns, b.real_ns * 1e-6, b.sim_ns * 1e-6));
  run.note(fmt("solved: message %.1f ns, turn %.1f ns", m.message, m.turn));
}

/// The shared cache: its size from a random walk (memory_load: the walk's largest set, past
/// every cache and the TLB's reach, as fanout-idle's 40 MB of actors and envelopes are), then
/// the ring with half that many bytes of actors (~256 each), each turn coming after a lap of
/// all the others: past the private cache, within the shared one. Simulated with the private
/// level on (cold_actor 1 ns for now), llc_actor 0 and then 1 us: what the simulation misses
/// per touch it finds in the shared cache is llc_actor.
void measure_shared_level(calibration_run& run, const ring_setup& rs) {
  machine_model& m = run.model();
  std::vector<std::pair<std::uint32_t, double>> sweep;
  m.shared_cache_kib = shared_cache_kib(m.private_cache_kib, sweep);
  std::string walk = "random walk, ns a load:";
  for (const auto& [kib, ns] : sweep) walk += fmt(" %.0f KiB %.0f", double(kib), ns);
  if (run.opt.shared_cache_kib >= 0) {
    walk += fmt(" (found %.0f KiB; %.0f KiB as given)", m.shared_cache_kib, double(run.opt.shared_cache_kib));
    m.shared_cache_kib = std::uint32_t(run.opt.shared_cache_kib);
  }
  if (!sweep.empty()) m.memory_load = sweep.back().second;
  m.stream_load = std::min(stream_load_ns(), m.memory_load);
  walk += fmt(" (memory_load %.0f ns; lines in address order, stream_load %.1f ns)", m.memory_load, m.stream_load);
  const std::int64_t llc_actors = std::int64_t(m.shared_cache_kib) * 1024 / 2 / 256;
  if (llc_actors * 192 <= std::int64_t(m.private_cache_kib) * 1024 * 5 / 4) {
    m.shared_cache_kib = 0;
    run.note(walk + ": no shared level past the private cache, so llc_actor stays off");
    return;
  }
  scenario llc_ring = ring_scenario({llc_actors, llc_actors / 8}, rs.msgs);
  llc_ring.sched.policy = "shared-queue";
  m.cold_actor = 1;  // the private level on, for now
  const touch_cost llc = cost_per_touch(llc_ring, run.c, m.llc_actor, 0, rs.path, rs.reps);
  run.note(walk + fmt(": shared cache %.0f KiB; ring L (%.0f actors, %.0f tokens, FIFO): ", double(m.shared_cache_kib),
                      double(llc_actors), double(llc_actors / 8)) +
           fmt("real %.2f ms, simulated %.2f ms without shared-cache touches, %.0f of them", llc.run.real_ns * 1e-6,
               llc.run.sim_ns * 1e-6, llc.touches) +
           fmt(": llc_actor %.1f ns", m.llc_actor));
  // llc_actor 0 keeps the level: a touch that finds it there costs nothing beyond the
  // other terms (ring L ran no slower than simulated), where dropping the level would
  // send every such touch to memory.
}

/// Cold actors: the ring again with so many actors and tokens that an actor has left the
/// private cache whenever a token reaches it, and a FIFO run queue, so that its turn comes
/// long after the send (two cold touches a message, their misses not chained one on the
/// other as a lone token's are; the 2^12 envelopes in flight, 256 KiB, stay in a shared
/// level where there is one). Simulated with everything above and cold_actor = 0, then
/// with cold_actor = 1 us to count the touches the model finds cold: what the simulation
/// misses, per cold touch, is cold_actor.
void measure_cold_actor(calibration_run& run, const ring_setup& rs) {
  machine_model& m = run.model();
  scenario cold_ring = ring_scenario({cold_ring_actors, cold_ring_tokens}, rs.msgs);
  cold_ring.sched.policy = "shared-queue";
  // baseline 0.001: the cache model on (a shared-cache touch costs the same in both runs).
  // Where no shared level was found, the ring's envelope reads are charged nothing while
  // cold_actor is solved: a level the walk missed (or one of 2 MiB, dropped above) holds
  // the 2^12 envelopes, and charging each a load from memory (the ring then simulated
  // slower than it ran) left nothing for cold_actor: it was solved to 0.
  const double memory_load = m.memory_load;
  if (m.shared_cache_kib == 0) m.memory_load = 0.001;
  const touch_cost cold = cost_per_touch(cold_ring, run.c, m.cold_actor, 0.001, rs.path, rs.reps);
  m.memory_load = memory_load;
  run.note(fmt("private cache %.0f KiB; ring C (%.0f actors, %.0f tokens, FIFO): ", double(m.private_cache_kib),
               double(cold_ring_actors), double(cold_ring_tokens)) +
           fmt("real %.2f ms, simulated %.2f ms without cold touches, %.0f cold touches", cold.run.real_ns * 1e-6,
               cold.run.sim_ns * 1e-6, cold.touches) +
           fmt(": cold_actor %.1f ns", m.cold_actor));
}

}  // namespace

void measure_worker_loop(calibration_run& run) {
  run.say("calibrate: the worker loop per message and per turn (calibration-ring on one worker, real vs simulated)");
  register_ring();
  const ring_setup rs{std::filesystem::temp_directory_path() / ("twinsched-calibrate-" + std::to_string(::getpid()) + ".toml"),
                      run.opt.quick ? 200'000 : 1'000'000, run.opt.quick ? 5 : 9};
  measure_message_turn(run, rs);
  machine_model& m = run.model();
  m.private_cache_kib = private_cache_kib();
  if (m.private_cache_kib == 0) {
    run.note(std::string("no L2 size in /sys/devices/system/cpu/cpu0/cache nor CPUID: the cold-actor model stays off") +
             (run.opt.shared_cache_kib >= 0 ? " (so --shared-cache-kib has nothing to set)" : ""));
    return;
  }
  measure_shared_level(run, rs);
  measure_cold_actor(run, rs);
}

}  // namespace twinsched::calib
