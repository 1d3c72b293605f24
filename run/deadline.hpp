// A wall-clock deadline for code that runs workers: a hang becomes a failure that prints the state of every live run.
//
// Arm one around anything that may hang (every doctest case gets one: tests/support/doctest_main.cpp).
// If it is still armed when `seconds` pass, its thread prints what it guarded and
// live_runs::report_all() (each worker and what it waits on, the policy's queues, the
// mailboxes with messages) to stderr, kills the simulations in flight, and ends the
// process with exit code 1: the hung workers cannot be stopped, and a test runner's own
// timeout would kill the process without a word. Destroying it disarms it.
#pragma once
#include <memory>
#include <string>

namespace twinsched {

class deadline {
 public:
  deadline(double seconds, std::string what);
  ~deadline();
  deadline(const deadline&) = delete;
  deadline& operator=(const deadline&) = delete;

  /// How much longer than usual this build runs (ThreadSanitizer about 5x, ASan 2x): the
  /// factor a deadline for a test should be multiplied by.
  static double build_slowdown();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace twinsched
