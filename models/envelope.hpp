// The pooled envelope a message travels in: a mailbox link, the message, and its trace id.
#pragma once
#include <cstdint>

#include "message.hpp"

namespace twinsched {

template <class P>
struct envelope {
  typename P::template atomic<envelope*> next{nullptr};
  message msg;
  std::uint64_t id = 0;  ///< unique per run: (sending worker + 1) << 48 | per-worker sequence
};

}  // namespace twinsched
