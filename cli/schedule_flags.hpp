// The flags `sim` and `explore` share to perturb a simulation's schedule: strategy, schedule seed, probability, depth, delays, an explicit preemption list.
#pragma once
#include <string>

#include "sim/schedule.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace twinsched::cli {

struct schedule_flags {
  schedule_spec spec;
  std::string delay_text, preemptions_text;
  CLI::Option *strategy_opt = nullptr, *seed_opt = nullptr, *p_opt = nullptr, *depth_opt = nullptr, *delay_opt = nullptr;
  bool for_explore = false;  ///< explore draws schedules: with no --strategy, random

  /// Registers the flags; `for_explore`: --schedule is the first seed explore tries.
  void add_to(CLI::App& cmd, bool for_explore);
  /// The schedule the flags describe (strategy "none" if none was asked for). Throws
  /// std::invalid_argument for a knob the schedule does not use (--p without --schedule).
  schedule_spec resolve() const;
};

}  // namespace twinsched::cli
