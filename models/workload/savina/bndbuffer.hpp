// Savina's BndBuffer (producer-consumer with a bounded buffer): the item computation, the message
// count, the checksum terms and the result check, shared by the workload (bndbuffer.cpp) and its test.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

#include "../../rng.hpp"
#include "pseudo_random.hpp"

namespace twinsched::savina_bndbuffer {

/// The messages: the manager's ProduceData to a producer, a data item (producer to manager, and
/// manager to consumer), a consumer's ConsumerAvailable, a producer's ProducerExit and the
/// manager's ConsumerExit.
enum tag : std::uint32_t { produce = 1, data_item, consumer_available, producer_exit, consumer_exit };

/// Log terms processItem computes for a cost: 100 per unit of cost, one for a cost of 0.
constexpr std::uint64_t terms(std::uint64_t cost) { return cost ? 100 * cost : 1; }

/// Savina's processItem: adds `terms(cost)` terms log(|u| + 0.01), u from a PseudoRandom seeded
/// afresh with the cost at each call, so every item of one cost does the same work.
inline double process_item(double cur, std::uint64_t cost) {
  savina::pseudo_random r(cost);
  const std::uint64_t n = terms(cost);
  for (std::uint64_t i = 0; i < n; ++i) cur += std::log(std::fabs(r.next_double()) + 0.01);
  return cur;
}

/// Messages a correct run processes: each producer's items + 1 ProduceData (the last makes it
/// exit) and its ProducerExit; each item to the manager, to a consumer, and the consumer's
/// ConsumerAvailable; the manager's ConsumerExit to each consumer.
constexpr std::uint64_t messages(std::uint64_t producers, std::uint64_t consumers, std::uint64_t items) {
  return 4 * producers * items + 2 * producers + consumers;
}

/// Checksum terms: an item (its producer, its number, its value), and the other messages by kind
/// and, where it names one, actor.
inline std::uint64_t item_print(std::uint64_t producer, std::uint64_t k, double v) {
  return splitmix64((producer << 32) | k) + std::bit_cast<std::uint64_t>(v);
}
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t who) { return splitmix64((std::uint64_t(t) << 56) ^ who); }

/// The sum of every message's terms in a correct run. Every producer starts from 0 and adds the
/// same terms, so all make the same items.
inline std::uint64_t reference_checksum(std::uint64_t producers, std::uint64_t consumers, std::uint64_t items,
                                        std::uint64_t prod_cost) {
  std::uint64_t s = 0;
  for (std::uint64_t p = 0; p < producers; ++p) {
    s += print(producer_exit, p);
    for (std::uint64_t k = 0; k <= items; ++k) s += print(produce, (p << 32) | k);
  }
  double v = 0;
  for (std::uint64_t k = 0; k < items; ++k) {
    v = process_item(v, prod_cost);
    for (std::uint64_t p = 0; p < producers; ++p) s += 2 * item_print(p, k, v);  // at the manager and a consumer
  }
  s += producers * items * print(consumer_available, 0);
  for (std::uint64_t c = 0; c < consumers; ++c) s += print(consumer_exit, c);
  return s;
}

/// The run's own check (Savina's has none): every producer made all its items, the consumers took
/// every one, the manager never held more than the buffer's size, and it ended the consumers.
constexpr bool result_ok(std::uint64_t producers, std::uint64_t items, std::uint64_t produced_min,
                         std::uint64_t produced_max, std::uint64_t consumed, std::uint64_t max_pending,
                         std::uint64_t buffer_size, bool manager_ended) {
  return produced_min == items && produced_max == items && consumed == producers * items &&
         max_pending <= buffer_size && manager_ended;
}

}  // namespace twinsched::savina_bndbuffer
