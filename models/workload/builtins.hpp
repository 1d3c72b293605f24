// The built-in workload types, one function each, gathered by builtins.cpp.
#pragma once
#include "workload.hpp"

namespace twinsched {
workload_info forward_workload();
workload_info pingpong_workload();
workload_info pi_workload();
workload_info skewed_workload();
workload_info fanout_idle_workload();
workload_info pool_workload();
workload_info burst_workload();
workload_info open_loop_workload();
}  // namespace twinsched
