// A raw clock whose ticks the recorder converts to nanoseconds off the hot path (the real backend's TSC).
#pragma once
#include <cstdint>
#include <string>

namespace twinsched::traces {

/// Implemented by runtime/tsc_clock.hpp. Events carry the clock's raw ticks (`base()` is not
/// subtracted on the hot path: that cost a load per event); the recorder's writer thread
/// subtracts `base()` (modulo 2^56, the lane's time field) and converts with `ns_per_tick()`,
/// calling `refine()` before each batch so the rate converges as the run goes on. Only the
/// writer thread calls refine/ns_per_tick.
class tick_clock {
 public:
  virtual ~tick_clock() = default;
  /// Ticks now, minus base().
  virtual std::uint64_t now() const = 0;
  /// Ticks at trace time 0.
  virtual std::uint64_t base() const = 0;
  virtual double ns_per_tick() const = 0;
  virtual void refine() = 0;
  /// Short name for the trace header: "tsc", "steady".
  virtual std::string name() const = 0;
  /// One line for the footer: the calibrated rate and how it was measured.
  virtual std::string note() const = 0;
};

}  // namespace twinsched::traces
