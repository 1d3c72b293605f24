// What an idle worker does next: the common vocabulary of the idle strategies.
#pragma once
#include <cstdint>
#include <limits>

namespace twinsched {

struct idle_decision {
  enum kind : std::uint8_t {
    retry,     ///< look for work again at once (noop)
    spin,      ///< one spin-loop pause, then look again
    yield,     ///< give the core away, then look again
    park_for,  ///< block until woken or `ns` elapsed (wakeable: goes through parking.hpp)
    park,      ///< block until woken
  };
  kind what = retry;
  std::uint64_t ns = 0;
};

/// How many workers share each hardware thread, rounded up: 1 when every worker can have its
/// own (workers <= P::hardware_workers()). The strategies that poll on a timer stretch
/// their timed parks by it when workers outnumber hardware threads: each hardware thread
/// then sees as many timed wake-ups as one worker of its own would make. Without that, 512
/// workers each waking every millisecond on 2 CPUs are half a million wake-ups a second,
/// and the workers with work wait behind them.
inline unsigned crowding(unsigned workers, unsigned hardware_threads) {
  if (hardware_threads == 0) hardware_threads = 1;
  return workers <= hardware_threads ? 1u : (workers + hardware_threads - 1) / hardware_threads;
}

/// `ns` times `crowd`, saturating.
inline std::uint64_t stretched(std::uint64_t ns, unsigned crowd) {
  return ns > std::numeric_limits<std::uint64_t>::max() / crowd ? std::numeric_limits<std::uint64_t>::max() : ns * crowd;
}

}  // namespace twinsched
