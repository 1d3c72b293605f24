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
  std::uint64_t id = 0;   ///< while tracing: message_id(sending actor, seq), the same in every run (traces)
  std::uint64_t seq = 0;  ///< while tracing or `checks`: the sending actor's send count (mod 2^32), this one included; else 0
  /// Its place among its depot's envelopes, in the order they were made, fixed for its life: how the
  /// simulator's cache model names it (platform.hpp 14). In the line's spare bytes.
  std::uint32_t slot = 0;
  /// Bytes of data its message carries (context::send_data), else 0: set by send_data, put
  /// back to 0 by the turn that reads them, so a plain send stores nothing more.
  std::uint32_t data_bytes = 0;
};
static_assert(sizeof(message) + 3 * 8 + 2 * 4 <= 64, "an envelope fits one cache line");

/// A message's id: its sending actor (0: the workload's start) << 32 | that sender's count of
/// sends. Unique in a run, and independent of the schedule: a run and its replay name each
/// message alike (traces/format.hpp). The count wraps after 2^32 sends by one actor.
constexpr std::uint64_t message_id(std::uint32_t sender, std::uint64_t seq) {
  return (std::uint64_t(sender) << 32) | (seq & 0xffffffffu);
}

}  // namespace twinsched
