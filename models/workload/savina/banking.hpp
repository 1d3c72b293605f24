// Savina's Banking: the teller's random transfers, the message count, the checksum terms and the
// result check, shared by the workload (banking.cpp) and its test.
#pragma once
#include <cstdint>
#include <limits>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_banking {

/// The messages: the teller's Start; its Credit to a transfer's source account; the source's
/// Debit to the destination; the destination's Reply to the source and the source's Reply to the
/// teller; the teller's Stop to every account.
enum tag : std::uint32_t { teller_start = 1, credit, debit, dest_reply, src_reply, stop };

/// One transfer: from a lower-numbered account to a higher one (Savina's order, which rules out a
/// cycle of accounts waiting on each other), an amount in millionths (Savina's amount is a double
/// in [0, 1000); here an exact integer, so conservation is checked exactly).
struct transfer {
  std::uint32_t src, dest;
  std::uint64_t amount;
};
inline rng teller_rng(std::uint64_t seed) { return rng(splitmix64(seed ^ 0xba2c)); }
inline transfer next_transfer(rng& r, std::uint32_t accounts) {
  const std::uint32_t src = r.below((accounts / 10) * 8);
  std::uint32_t step = r.below(accounts - src);
  if (step == 0) step = 1;
  return {src, src + step, r.below(1000000000u)};
}

/// Every account's opening balance: Savina's is Double.MAX_VALUE / (A * N), which swallows every
/// amount in rounding; here the most that keeps the bank's total in 63 bits.
inline std::int64_t initial_balance(std::uint64_t accounts) {
  return std::numeric_limits<std::int64_t>::max() / std::int64_t(2 * accounts);
}

/// Messages a correct run processes: the Start, four per transfer, a Stop per account.
constexpr std::uint64_t messages(std::uint64_t accounts, std::uint64_t transactions) {
  return 1 + 4 * transactions + accounts;
}

/// Checksum terms: a message's kind and the transfer (number and amount) it belongs to.
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t word) {
  return splitmix64((std::uint64_t(t) << 58) ^ word);
}
/// A transfer's word in its messages: its number and amount.
constexpr std::uint64_t word(std::uint64_t k, std::uint64_t amount) { return (k << 32) | amount; }

/// Each account's closing balance after every transfer, in any order.
inline std::vector<std::int64_t> closing(std::uint32_t accounts, std::uint64_t transactions, std::uint64_t seed) {
  std::vector<std::int64_t> b(accounts, initial_balance(accounts));
  rng r = teller_rng(seed);
  for (std::uint64_t k = 0; k < transactions; ++k) {
    const transfer t = next_transfer(r, accounts);
    b[t.src] -= std::int64_t(t.amount);
    b[t.dest] += std::int64_t(t.amount);
  }
  return b;
}

inline std::uint64_t reference_checksum(std::uint32_t accounts, std::uint64_t transactions, std::uint64_t seed) {
  std::uint64_t s = 0;
  rng r = teller_rng(seed);
  for (std::uint64_t k = 0; k < transactions; ++k) {
    const std::uint64_t w = word(k, next_transfer(r, accounts).amount);
    s += print(credit, w) + print(debit, w) + print(dest_reply, w) + print(src_reply, w);
  }
  for (std::uint64_t i = 0; i < accounts; ++i) s += print(stop, i);
  return s;
}

/// The run's own check (Savina's has none): every transfer completed, the bank's total is what it
/// opened with, and every account closes with the balance the transfers give it.
inline bool result_ok(std::uint64_t transactions, std::uint64_t completed, const std::vector<std::int64_t>& expected,
                      const std::vector<std::int64_t>& got) {
  if (completed != transactions || got.size() != expected.size()) return false;
  std::int64_t total = 0;
  for (std::int64_t b : got) total += b;
  return total == initial_balance(expected.size()) * std::int64_t(expected.size()) && got == expected;
}

}  // namespace twinsched::savina_banking
