// Running a scenario on real cores: the std::thread platform driving the scheduler.
#pragma once
#include "models/config.hpp"
#include "models/run_result.hpp"

namespace twinsched {

/// Validates `s` (throws config_error), builds its workload, runs it to quiescence on
/// `s.sched.workers` std::threads and returns the measurements and the checksum verdict.
run_result run_on_threads(const scenario& s);

/// Runs an already built workload (user code, tests) with configuration `c`.
run_result run_on_threads(const scheduler_config& c, workload& w, std::uint64_t seed = 1);

}  // namespace twinsched
