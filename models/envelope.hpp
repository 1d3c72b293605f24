// The pooled envelope a message travels in: a mailbox link, the message, and its trace id.
#pragma once
#include <cstdint>

#include "message.hpp"

namespace twinsched {

/// The link part alone: a mailbox's stub is one of these, so an idle actor carries 8 bytes
/// of queue node, not a whole envelope.
template <class P>
struct envelope_base {
  typename P::template atomic<envelope_base*> next{nullptr};
};

template <class P>
struct envelope : envelope_base<P> {
  message msg;
  std::uint64_t id = 0;  ///< unique per run: (sending worker + 1) << 48 | per-worker sequence
};

}  // namespace twinsched
