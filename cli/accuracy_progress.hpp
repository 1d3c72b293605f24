// `twinsched accuracy`'s progress on stderr: the matrix's steps (each real run, each simulation) on one line.
#pragma once
#include <cstddef>
#include <string>

#include "cli/progress.hpp"
#include "twin/accuracy_run.hpp"

namespace twinsched::cli {

/// Progress on stderr (cli/progress.hpp), by step: on a terminal one line redrawn in place with
/// the step's case and phase (warm-up, run k and its messages so far, the simulation's simulated
/// time and messages); elsewhere one line per step.
class matrix_progress {
 public:
  matrix_progress();
  /// The matrix's steps, run and reported through this line (twin/accuracy_run.hpp); the probe stays the default.
  twin::matrix_steps steps();
  /// Erases the line and prints "accuracy: N cases in T".
  void done(std::size_t cases);

 private:
  bool live() const { return mode_ == progress::mode::live; }
  /// "[3/74] forward stealing 2w"
  std::string head() const;
  std::string status() const;

  std::size_t total_ = 0, k_ = 0;
  std::string what_, phase_;
  progress::mode mode_;
  progress p_;
};

}  // namespace twinsched::cli
