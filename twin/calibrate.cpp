// Calibration: every term of a machine model, measured on this machine (what `twinsched calibrate` runs).
//
// Each figure is the lower quartile of `reps` short batches (61; --quick: 21, each half as
// long), robust to the preemptions a shared machine inflicts on most of them (cost_of, batch_stats.hpp).
// The steps live beside it: thread_microbench.cpp (the core, two pinned cores, parking, burn_ns,
// kernels), structure_costs.cpp (the runtime's data structures), ring_fit.cpp with
// calibration_ring.cpp (message, turn and the cache terms), host_probes.cpp (pinning, sysfs and
// CPUID, the walks); machine_toml.cpp writes the result. What each term measures:
//   clock_ghz: cycles of a dependent add chain per ns (not the TSC rate)
//   atomic_load / atomic_store / atomic_rmw / fence: a tight loop of the operation on a line
//       this thread owns (rmw = fetch_add, fence = seq_cst fence), ns per operation
//   line_transfer_same_socket: two threads pinned to CPU 0 and another core's CPU (CPU 1,
//       unless it is CPU 0's SMT sibling: partner_cpu): CPU 0 writes a chain of 2048
//       lines in random order, the partner follows it (dependent loads: no two misses overlap) and
//       then follows it again from its own cache; (first walk - second) / 2048. Not the one way
//       of a ping-pong of one line (round trip / 2), which adds two spinning threads' loop
//       exits and an invalidation to each trip, several times the chain's figure on a VM
//   migration_per_kib: a ping-pong of one line (each waits for the other's increment), and the
//       same where the receiver then reads and writes a 16 KiB buffer the sender just wrote;
//       (the difference of their one-way times) / 16 per one-way trip
//   quantum_ns: the ping-pong's one-way time, the fastest hand-off between two cores: a worker
//       runs ahead of the others by about what one needs to reach it (cost_model.hpp draws
//       each yield point between half and one and a half quanta)
//   lock_handoff: two pinned threads alternate on a turn flag, taking a std::mutex each turn
//       in odd batches and not in even ones; the median over neighbouring batches of the
//       difference per hand-off, minus the lock word's line transfer and rmw (the model
//       charges those apart)
//   park / unpark / wake_latency: a futex-backed std::condition_variable; park = one futex
//       wait syscall that returns at once, unpark = notify_one with a sleeper, wake latency =
//       notify to the sleeper running (steady_clock stamps on both sides); its quantiles are
//       wake_latency_quantiles; timer_late_quantiles: a 20 us timed wait's overshoot past
//       its deadline on the partner CPU, with the runtime's timer slack of 1 ns
//   contended_unlock: one futex wake syscall with nobody waiting (what glibc's unlock of a
//       std::mutex another thread contended makes; the contender's futex wait is `park`)
//   spin: one _mm_pause; yield: one sched_yield with nothing else to run on this core
//   burn_call: thread_platform::burn_ns(2000) called 16 times: elapsed / 16 - 2000 (what a
//       call costs beyond what it was asked; the loop's deadline check and call)
//   queue_op: a Chase-Lev deque (models/policy/chase_lev_deque.hpp, over the real platform)
//       pushed and popped in pairs: time per operation minus what the simulator charges for
//       the same code's atomics and fences (the same loop over sim_platform with queue_op = 0)
//   locked_queue_op: the same for a lock-guarded FIFO (models/policy/locked_fifo.hpp): what it
//       costs beyond the simulator's charge for its lock and atomics (the unlock's exchange,
//       the calls into the C library)
//   envelope: an envelope pool (models/envelope_pool.hpp) with its depot: 512 gets then 512
//       puts, per get+put pair, minus the simulated charge of the same (the depot's lock)
//   mailbox_push / mailbox_pop: a mailbox (models/mailbox.hpp) receives n envelopes, then
//       its owner pops them all; per push and per pop, minus the simulated charge of the same
//   private_cache_kib, cold_actor: the L2 size sysfs (else CPUID) reports; the ring again, with 2^17 actors
//       and 2^12 tokens on a FIFO queue (every touch of an actor finds it evicted), against its
//       simulation with everything else measured: the time missed per touch the model finds cold
//   shared_cache_kib, memory_load: a random walk over lines (each load's address in the line
//       before), 2x the private cache up to 128 MiB: the largest set below a quarter of the
//       way from the first latency to the last is the shared level (each set's latency the
//       least of three passes; --shared-cache-kib overrides); the last latency, a load from
//       memory that nothing overlaps, is memory_load
//   stream_load: a chain of lines linked in ascending address order over 128 MiB, per load
//       (a burst of envelopes read in the order sent: the prefetcher streams them)
//   kernels: each registered workload kernel (pi's Leibniz term) timed on one thread, ns a unit
//       (the mean of millisecond batches, the slowest tenth left out: kernels run long, at the
//       machine's typical rate, timer ticks included)
//   message / turn: the fixed cost of the worker loop, measured end to end. A ring workload
//       of its own (calibration-ring: tokens hop from actor i to actor 5i+1 mod A, which visits
//       every actor of a power-of-two ring in a scattered order) runs on ONE real worker
//       (stealing, burst 16) in two shapes: many actors and one token (one message a
//       turn) and few actors and many tokens (up to 16 messages a turn), timed in CPU time
//       (getrusage: the worker's time, not the other processes'); the cheapest of several
//       runs counts. Each is simulated on
//       one core with every term measured above and message = turn = 0; the real time the
//       simulation misses, over both shapes, is solved for per-message and per-turn costs
//       (two equations, two unknowns; clamped at 0). No stock scenario is run.
// The microbenchmarks run hot (a tight loop, warm caches); message and turn absorb what a
// real run adds on top (cache misses on actors and envelopes, branch misses, the behavior's
#include "twin/calibrate.hpp"

#include <algorithm>
#include <thread>

#include "twin/batch_stats.hpp"
#include "twin/calibration_steps.hpp"
#include "twin/host_probes.hpp"

namespace twinsched {

double probe_line_transfer_ns() {
  if (std::thread::hardware_concurrency() < 2) return 0;
  return calib::lower_quartile(calib::chase(100, 2048));  // calibrate's measurement, a sixth of its batches
}

calibration calibrate_machine(const calibrate_options& o) {
  const auto start = calib::clk::now();
  calibration c;
  // Many short batches (each about a millisecond or less) rather than a few long runs: on a
  // shared machine some batches run undisturbed, and cost_of takes their lower quartile.
  calib::calibration_run run{o, c, o.quick ? 21 : 61, o.quick ? 2u : 1u};
  machine_model& m = c.model;
  m = parse_machine("", "<calibrate>");  // the embedded default's values, until measured
  m.name = o.name;
  m.source = "<calibrate>";
  m.sockets = 1;
  m.cores_per_socket = std::max(1u, std::thread::hardware_concurrency());

  calib::measure_core(run);
  calib::measure_between_cores(run);
  calib::measure_parking(run);
  calib::measure_burn(run);
  calib::measure_structures(run);
  calib::measure_worker_loop(run);
  calib::measure_kernels(run);
  c.seconds = calib::ns_since(start) * 1e-9;
  run.say(calib::fmt("calibrate: done in %.1f s", c.seconds));
  return c;
}

}  // namespace twinsched
