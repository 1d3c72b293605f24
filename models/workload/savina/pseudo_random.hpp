// Savina's PseudoRandom (benchmarks/PseudoRandom.java): the 16-bit linear congruence Savina's
// benchmarks draw their inputs from "to improve comparability between programming languages",
// and which CAF's ports copy. A benchmark whose work depends on its values (which pivots a sort
// meets, how often a value repeats) does Savina's work only on Savina's values.
#pragma once
#include <cstdint>

namespace twinsched::savina {

class pseudo_random {
 public:
  explicit pseudo_random(std::uint64_t seed) : value_(seed) {}
  /// The next value, below 65536. The state is taken mod 2^16 at every step, so only the low 16
  /// bits of the seed matter (as in Java, whose long arithmetic wraps the same way).
  std::uint64_t next_long() {
    value_ = (value_ * 1309 + 13849) & 65535;
    return value_;
  }
  double next_double() { return 1.0 / double(next_long() + 1); }

 private:
  std::uint64_t value_;
};

}  // namespace twinsched::savina
