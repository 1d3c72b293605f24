// What an idle worker does next: the common vocabulary of the idle strategies.
#pragma once
#include <cstdint>

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

}  // namespace twinsched
