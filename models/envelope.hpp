// The pooled envelope a message travels in: a mailbox link, the message, and its trace id.
#pragma once
#include <cstdint>

#include "message.hpp"

namespace twinsched {

/// One cache line each: an envelope is written by its sender and read (and recycled) by its
/// receiver's worker, and two envelopes sharing a line would make workers that never talk
/// to each other (independent pingpong pairs) bounce that line on every message.
template <class P>
struct alignas(64) envelope {
  typename P::template atomic<envelope*> next{nullptr};
  message msg;
  std::uint64_t id = 0;  ///< unique per run: (sending worker + 1) << 48 | per-worker sequence
  std::uint64_t seq = 0;  ///< `checks` runs: the sending actor's send count (per-sender order); else 0
};

}  // namespace twinsched
