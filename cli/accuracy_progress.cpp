// `twinsched accuracy`'s progress on stderr: the matrix's steps (each real run, each simulation) on one line.
#include "cli/accuracy_progress.hpp"

#include <cstdio>
#include <iostream>

#include "cli/run_progress.hpp"
#include "cli/sim_progress.hpp"

namespace twinsched::cli {

matrix_progress::matrix_progress() : mode_(progress::mode_or_lines(false)), p_("accuracy", mode_, 0, 0) {}

std::string matrix_progress::head() const {
  return "[" + std::to_string(k_ + 1) + "/" + std::to_string(total_) + "] " + what_;
}

std::string matrix_progress::status() const {
  const double elapsed = p_.elapsed_s();
  std::string s = head();
  if (!phase_.empty()) s += ": " + phase_;
  s += " (" + duration_text(elapsed) + " elapsed";
  if (k_ > 0) s += ", ETA " + duration_text(elapsed / double(k_) * double(total_ - k_));
  return s + ")";
}

twin::matrix_steps matrix_progress::steps() {
  twin::matrix_steps s;
  s.planned = [this](std::size_t more) { total_ += more; };
  s.started = [this](std::size_t k, const std::string& what, const std::string& phase) {
    k_ = k;
    what_ = what;
    phase_ = phase;
    p_.update(status());
  };
  s.real_run = [this](const scenario& sc) {
    return live() ? run_with_progress(p_, sc, {}, head() + ": " + phase_) : run_on_threads(sc);
  };
  s.simulate = [this](const scenario& sc, const sim_options& o) {
    return live() ? simulate_with_progress(p_, sc, o, head()) : simulate(sc, o);
  };
  s.warn = [](const std::string& line) { std::cerr << line << '\n'; };
  return s;
}

void matrix_progress::done(std::size_t cases) {
  const std::string took = p_.elapsed_text();
  p_.finish();
  std::fprintf(stderr, "accuracy: %zu cases in %s\n", cases, took.c_str());
}

}  // namespace twinsched::cli
