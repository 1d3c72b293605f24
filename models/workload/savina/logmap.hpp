// Savina's LogMap (logistic map series): the series, the message count, the checksum terms and
// the result check, shared by the workload (logmap.cpp) and its test.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

#include "../../rng.hpp"

namespace twinsched::savina_logmap {

/// The messages: the master's Start; its NextTerm and GetTerm to a series worker; a worker's
/// Compute to its rate computer and the computer's Result back; a worker's Result to the master;
/// the master's Stop to every worker and computer.
enum tag : std::uint32_t { master_start = 1, next_term, get_term, compute, result, final_term, stop };

/// Savina's computeNextTerm: one step of the logistic map.
constexpr double next(double term, double rate) { return rate * term * (1 - term); }

/// Series i starts at i * increment with rate start_rate + i * increment; its term after `terms` steps.
constexpr double start_term(std::uint64_t i, double increment) { return double(i) * increment; }
constexpr double rate(std::uint64_t i, double start_rate, double increment) { return start_rate + double(i) * increment; }
inline std::vector<double> final_terms(std::uint64_t terms, std::uint64_t series, double start_rate, double increment) {
  std::vector<double> out;
  for (std::uint64_t i = 0; i < series; ++i) {
    double t = start_term(i, increment);
    for (std::uint64_t k = 0; k < terms; ++k) t = next(t, rate(i, start_rate, increment));
    out.push_back(t);
  }
  return out;
}

/// Messages a correct run processes: the Start; per series `terms` NextTerms, Computes and
/// Results, a GetTerm, its Result to the master and two Stops.
constexpr std::uint64_t messages(std::uint64_t terms, std::uint64_t series) { return 1 + 3 * terms * series + 4 * series; }

/// Checksum terms: a message's kind, series and the term it carries.
constexpr std::uint64_t print(std::uint32_t t, std::uint64_t series, double term = 0) {
  return splitmix64((std::uint64_t(t) << 56) ^ series) + std::bit_cast<std::uint64_t>(term);
}

inline std::uint64_t reference_checksum(std::uint64_t terms, std::uint64_t series, double start_rate,
                                        double increment) {
  std::uint64_t s = print(master_start, 0);
  for (std::uint64_t i = 0; i < series; ++i) {
    double t = start_term(i, increment);
    s += print(get_term, i) + 2 * print(stop, i);
    for (std::uint64_t k = 0; k < terms; ++k) {
      s += print(next_term, i) + print(compute, i, t);
      t = next(t, rate(i, start_rate, increment));
      s += print(result, i, t);
    }
    s += print(final_term, i, t);
  }
  return s;
}

/// The run's own check (Savina prints the terms' sum): every series' last term is the one the
/// sequential loop computes, bit for bit (each series is a chain: its steps cannot reorder).
inline bool result_ok(const std::vector<double>& expected, const std::vector<double>& got,
                      const std::vector<std::uint64_t>& reported) {
  if (got.size() != expected.size() || reported.size() != expected.size()) return false;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (reported[i] != 1 || std::bit_cast<std::uint64_t>(got[i]) != std::bit_cast<std::uint64_t>(expected[i]))
      return false;
  return true;
}

}  // namespace twinsched::savina_logmap
