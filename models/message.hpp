// A message: a small trivially-copyable payload, and the pooled envelope that carries it.
#pragma once
#include <cstdint>
#include <type_traits>

namespace twinsched {

class actor;

/// What a behavior receives. Two payload words and a tag are enough for every built-in
/// workload; larger payloads live in the actor's state and travel by index.
struct message {
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint32_t tag = 0;
  std::uint32_t flags = 0;  ///< runtime-owned bits (e.g. "donated"); behaviors leave them alone
  actor* sender = nullptr;  ///< null for messages injected from outside the runtime
};
static_assert(std::is_trivially_copyable_v<message>);

inline constexpr std::uint32_t message_donated = 1u;
/// A timer's message whose `b` the runtime overwrote with its arrival time (context::send_after):
/// the payload digests (delivery_tally.hpp) leave that word out, as no two runs share it.
inline constexpr std::uint32_t message_stamped = 2u;

}  // namespace twinsched
