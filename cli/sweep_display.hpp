// A sweep's (or a suite's) progress on the command's progress line: live on a terminal, else a line every 10 s.
#pragma once
#include <iostream>
#include <optional>
#include <string>

#include "cli/progress.hpp"
#include "sweep/sweep_run.hpp"

namespace twinsched::cli {

class progress_display final : public sweep_display {
  std::optional<progress> p_;
  std::string what_;

 public:
  explicit progress_display(std::string what) : what_(std::move(what)) {}
  void start() override { p_.emplace(what_, progress::mode_or_lines(false), 1.0, 10.0); }
  void update(const std::string& status) override { p_->update(status); }
  void note(const std::string& line) override { p_->print(std::cerr, line); }
  void finish() override { p_->finish(); }
  double elapsed_s() const override { return p_->elapsed_s(); }
  std::string duration_text(double s) const override { return cli::duration_text(s); }
};

}  // namespace twinsched::cli
