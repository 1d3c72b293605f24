// Mutant 1's scenario, small (tests/mutants/run.sh): pingpong under sharing with parking workers, 3 pairs, 300 bounces, every check on.
#pragma once
#include <cstdint>
#include <string>

#include "models/config.hpp"

namespace twinsched::test {

/// 3 workers hand 3 pairs' 300 bounces off through the sharing policy's dispatcher queue and
/// park when idle: the lost-wake-up window explore's schedules probe.
inline scenario pingpong_sharing_park(const std::string& name) {
  scenario s;
  s.name = name;
  s.workload = "pingpong";
  s.workload_params = {{"pairs", std::int64_t(3)}, {"bounces", std::int64_t(300)}};
  s.sched.policy = "sharing";
  s.sched.idle.strategy = "park";
  s.sched.workers = 3;
  s.sched.checks = true;
  return s;
}

}  // namespace twinsched::test
