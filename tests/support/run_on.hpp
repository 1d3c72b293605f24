// Runs a scenario on either platform and returns the scheduler's run_result: a policy test written once over P.
//
// On threads: run_on_threads. In simulation: simulate() (a child process of its own) on
// `cores` modeled cores of the scenario's machine, whose run_result carries the same counters,
// per-worker stats and thread timeline. Workloads are found by name, so a test's own workload
// is registered (register_workload) and keeps what it checks in result_ok()/detail(): in
// simulation the workload object lives and dies in the child.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "models/config.hpp"
#include "models/run_result.hpp"
#include "runtime/run_threads.hpp"
#include "runtime/thread_platform.hpp"
#include "sim/run_sim.hpp"

namespace twinsched::testing {

template <class P>
run_result run_on(const scenario& s, std::uint32_t cores = 4) {
  if constexpr (std::is_same_v<P, thread_platform>) {
    return run_on_threads(s);
  } else {
    sim_options o;
    o.cores = cores;
    sim_result r = simulate(s, o);
    std::string why;
    for (const auto& e : r.run.errors) why += e + "\n";
    CHECK_MESSAGE(!r.aborted, "the simulation did not finish: " << why);
    return r.run;
  }
}

}  // namespace twinsched::testing
