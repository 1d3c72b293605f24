// Savina's PingPong: what each message adds to the checksum, the sequential reference and the
// result check, shared by the workload (pingpong.cpp) and its test.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_pingpong {

/// The messages of Savina's PingPong: the injected start; the ping actor's ping to itself
/// (Savina's PingMessage, which makes it send the next ping); the ping and the pong that
/// cross between the two (SendPingMessage, SendPongMessage); and the stop ping sends pong.
enum tag : std::uint32_t { start = 1, self_ping, send_ping, send_pong, stop };

/// What one message adds to the checksum: its kind and the number of the ping it belongs to.
constexpr std::uint64_t value(std::uint32_t t, std::uint64_t ping) { return splitmix64((std::uint64_t(t) << 40) ^ ping); }

/// Messages a correct run of `pings` pings processes: the start, each ping and its pong, the
/// self-message before every ping but the first, and the stop.
constexpr std::uint64_t messages(std::uint64_t pings) { return 3 * pings + 1; }

/// The checksum of a correct run: every message above, summed.
constexpr std::uint64_t reference_checksum(std::uint64_t pings) {
  std::uint64_t s = value(start, 0) + value(stop, 0);
  for (std::uint64_t i = 0; i < pings; ++i) s += value(send_ping, i) + value(send_pong, i) + (i ? value(self_ping, i) : 0);
  return s;
}

/// The run's own check (Savina's PingPong has none): pong answered every ping, ping received
/// every pong and sent no ping more, and both stopped.
constexpr bool result_ok(std::uint64_t pings, std::uint64_t answered, std::uint64_t received, std::uint64_t left,
                         bool both_stopped) {
  return answered == pings && received == pings && left == 0 && both_stopped;
}

}  // namespace twinsched::savina_pingpong
