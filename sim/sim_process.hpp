// What run_sim.cpp and sim_batch.cpp share: a simulation's checks, its run in this process, its result as text, and the page it reports progress in.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>

#include "machine_model.hpp"
#include "run_sim.hpp"
#include "sim_platform.hpp"

namespace twinsched {

/// The page a simulation process reports its progress in (the protocol: run_sim.cpp).
struct progress_page {
  std::atomic<std::uint64_t> sim_ns{0}, messages{0}, expected_messages{0}, turns{0}, recorded_turns{0};
  /// All counters back to zero (a batch's runner reuses its page run after run).
  void clear() {
    for (auto* c : {&sim_ns, &messages, &expected_messages, &turns, &recorded_turns}) c->store(0, std::memory_order_relaxed);
  }
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the page's counters must be address-free");

namespace sim_process {

/// The options' own checks (cheap: no file, no workload).
void check_options(const sim_options& o);
/// The machine the options name, else the scenario's.
const std::string& machine_spec(const scenario& s, const sim_options& o);
/// The scenario's checks: valid, and its memory estimate fits this machine's memory.
void check_scenario(const scenario& s);
/// Every check of a simulation's inputs; returns the machine it runs on.
machine_model checked(const scenario& s, const sim_options& o);
/// The platform's configuration for these options.
sim_config config_of(const sim_options& o);
/// A checked simulation of `s` on machine `m`, in this process, reporting to `page` (null: to nobody).
sim_result simulate_reporting(const scenario& s, const sim_options& o, const machine_model& m, progress_page* page);
/// simulate_reporting's result as the pipe carries it (to_json_text, or the error that stopped
/// it as {"config_error": ...} or {"error": ...}); returns the exit code the process ends with.
int result_text(const scenario& s, const sim_options& o, const machine_model& m, progress_page* page, std::string& text);
/// Writes all of `n` bytes to `fd`, a pipe or a socket (retried on EINTR, polled when full; a
/// socket whose peer is gone is a false return, never SIGPIPE).
bool write_all(int fd, const char* p, std::size_t n);
/// A new progress page shared with the children forked after it (all counters zero).
progress_page* map_progress_page();
/// Waits for `r` under the deadline's watch (run/live_runs.hpp): a hung child is killed and
/// reported, so it cannot outlive the process that waits for it.
sim_result watched(const scenario& s, const sim_options& o, running_simulation r);
/// The simulation's result from the child's text (throws as finish_simulation does).
sim_result parse_result(const std::string& text);

/// read_available and finish_simulation of a run a sim_batch's runner simulates (sim_batch.cpp).
bool batch_runner_read(running_simulation& r);
sim_result batch_runner_finish(running_simulation& r);

}  // namespace sim_process
}  // namespace twinsched
