// The calibration workload: a ring of its own (never a stock scenario), and the scenarios that run it.
#pragma once
#include <cstdint>

#include "models/config.hpp"

namespace twinsched::calib {

inline constexpr const char* ring_name = "calibration-ring";

/// Registers the ring as workload `ring_name` (once; later calls do nothing).
void register_ring();

/// Actors of the cold ring: 2^17 of ~250 bytes each (32 MiB) overflow any private cache. Its
/// 2^12 tokens' actors and envelopes (~1.3 MiB) overflow a 1 MiB one while they wait in the
/// run queue, and stay in a shared level of 2 MiB or more. With 2^14 (4-5 MiB) a calibration
/// that found a 4 MiB level had the model read the ring's envelopes from memory (memory_load
/// each), and solved cold_actor to 0 where another, finding 8 MiB, did not.
inline constexpr std::int64_t cold_ring_actors = std::int64_t(1) << 17, cold_ring_tokens = std::int64_t(1) << 12;

struct ring_shape {
  std::int64_t actors, tokens;
};

/// The ring of `shape` carrying about `messages` messages on one worker (stealing, burst 16, park).
scenario ring_scenario(const ring_shape& shape, std::int64_t messages);

}  // namespace twinsched::calib
