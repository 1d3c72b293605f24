// The memory a run will need, estimated from its scenario before anything is allocated, and the check that refuses a run that cannot fit.
#pragma once
#include <cstdint>
#include <string>

#include "config.hpp"

namespace twinsched {

/// A run's estimated peak memory and what it is made of.
struct memory_estimate {
  double bytes = 0;
  std::string parts;  ///< "2e+18 queued messages x 64 B, 1000 actors x 192 B, 2 workers x 256 KiB"
};

/// From the workload's footprint (workload::peak: built, not started, so nothing is
/// allocated) and the scheduler's per-actor, per-message and per-worker costs.
memory_estimate estimate_memory(const scenario& s);

/// Throws config_error, with the estimate, when a run of `s` needs more than `available`
/// bytes (the machine's memory: run/host_memory.hpp).
void check_memory(const scenario& s, std::uint64_t available);

/// "1.5 GiB", "512 EiB": bytes as a person reads them.
std::string bytes_text(double bytes);

}  // namespace twinsched
