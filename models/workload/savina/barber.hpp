// Savina's Barber (the sleeping barber): the random durations, the message count, the checksum
// terms and the result check, shared by the workload (barber.cpp) and its test.
#pragma once
#include <cstdint>

#include "../../rng.hpp"

namespace twinsched::savina_barber {

/// The messages: the factory's Start; a customer's Enter to the room (from the factory); the
/// room's Full and Wait to a customer, its Next to itself (waking the barber), its Enter to the
/// barber and its Wait to the barber (who sleeps); the barber's Start and Done to a customer and
/// its Next to the room; a customer's Returned and Done to the factory; the Exits of room and barber.
enum tag : std::uint32_t {
  factory_start = 1,
  enter,
  full,
  wait,
  next,
  serve,
  sleep,
  cut_start,
  cut_done,
  returned,
  done,
  room_exit,
  barber_exit
};

/// The random busy-wait lengths, in Savina's iterations: nextInt(rate) + 10. The factory draws one
/// after each new customer, the barber one per haircut, each from its own stream seeded by the
/// workload's seed, so they never depend on the interleaving.
inline rng factory_rng(std::uint64_t seed) { return rng(splitmix64(seed ^ 0xfac7)); }
inline rng barber_rng(std::uint64_t seed) { return rng(splitmix64(seed ^ 0xba4b)); }
inline std::uint64_t wait_iterations(rng& r, std::uint32_t rate) { return r.below(rate) + 10; }

/// Messages a correct run processes: the Start and both Exits; per customer its Enter, a Wait or
/// the Next that wakes the barber, the Enter to the barber, Start, Done, the barber's Next and
/// the Done to the factory; per customer turned away its Full, Returned and Enter again; per time
/// the barber fell asleep the room's Wait. Turn-aways and sleeps depend on the interleaving: the
/// room counts them.
constexpr std::uint64_t messages(std::uint64_t haircuts, std::uint64_t turned_away, std::uint64_t sleeps) {
  return 3 + 7 * haircuts + 3 * turned_away + sleeps;
}

/// Checksum terms: a customer's Start and Done, the factory's Done for it, the barber's haircuts
/// (number and length) and the Exits.
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t who, std::uint64_t x = 0) {
  return splitmix64((std::uint64_t(t) << 56) ^ (who << 20) ^ x);
}

inline std::uint64_t reference_checksum(std::uint64_t haircuts, std::uint32_t ahr, std::uint64_t seed) {
  std::uint64_t s = print(room_exit, 0) + print(barber_exit, 0);
  rng r = barber_rng(seed);
  for (std::uint64_t c = 0; c < haircuts; ++c)
    s += print(cut_start, c) + print(cut_done, c) + print(done, c) + print(serve, c, wait_iterations(r, ahr));
  return s;
}

/// What the run recorded, for the check.
struct outcome {
  std::uint64_t customers = 0;       ///< customers the factory created
  std::uint64_t served_once = 0;     ///< customers that got exactly one Start and one Done
  std::uint64_t haircuts = 0;        ///< haircuts the barber gave
  std::uint64_t factory_done = 0;    ///< Dones the factory counted
  std::uint64_t turned_away = 0;     ///< Fulls the room sent
  std::uint64_t returned = 0;        ///< Returneds the factory got
  std::uint64_t most_waiting = 0;    ///< the waiting room's largest queue
  bool ended = false;                ///< the room and the barber got their Exits
};

/// The run's own check (Savina's has none): every customer got exactly one haircut, every
/// customer turned away came back (so the counts add up: attempts = haircuts + turn-aways), and
/// the waiting room never held more than its chairs.
constexpr bool result_ok(std::uint64_t haircuts, std::uint64_t capacity, const outcome& o) {
  return o.customers == haircuts && o.served_once == haircuts && o.haircuts == haircuts &&
         o.factory_done == haircuts && o.turned_away == o.returned && o.most_waiting <= capacity && o.ended;
}

}  // namespace twinsched::savina_barber
