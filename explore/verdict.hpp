// What one explored run showed: whether it broke an invariant, which one, and the error that says where.
#pragma once
#include <string>

#include "sim/run_sim.hpp"

namespace twinsched::explore {

/// What one simulation under one schedule showed.
struct outcome {
  bool failed = false;
  std::string kind;   ///< which invariant: lost-wakeup, two-workers, per-sender-order, time-limit, livelock, behavior-error, crash, verdict
  std::string error;  ///< the first error, as the simulation reported it
  sim_result result;
};

/// The invariant a failed run broke, from the error the simulation reported (run_sim, sim_platform).
std::string kind_of(const std::string& error);
/// The outcome of a finished simulation: its first error, or what its verdict got wrong.
outcome judge(const sim_result& r);

}  // namespace twinsched::explore
