// Progress lines on stderr: drawn in place on a terminal, periodic plain lines for logs, throttled, thread-safe.
#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace twinsched::cli {

progress::mode progress::mode_for(bool quiet) { return !quiet && ::isatty(STDERR_FILENO) ? mode::live : mode::off; }

progress::mode progress::mode_or_lines(bool quiet) {
  if (quiet) return mode::off;
  return ::isatty(STDERR_FILENO) ? mode::live : mode::lines;
}

progress::progress(std::string label, mode m, double delay_s, double every_s)
    : label_(std::move(label)), mode_(m), delay_s_(delay_s), every_s_(every_s), t0_(std::chrono::steady_clock::now()) {}

progress::~progress() { finish(); }

double progress::elapsed_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

std::string progress::elapsed_text() const { return duration_text(elapsed_s()); }

void progress::draw_locked(bool force) {
  if (mode_ == mode::off || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  // lines (a log): the first line after every_s too, so a command that ends sooner stays silent
  if (!force && elapsed_s() < (mode_ == mode::lines ? std::max(delay_s_, every_s_) : delay_s_)) return;
  const double since_draw = std::chrono::duration<double>(now - last_draw_).count();
  if (!force && drawn_ && since_draw < (mode_ == mode::live ? 0.25 : every_s_)) return;
  last_draw_ = now;
  drawn_ = true;
  const std::string line = label_ + ": " + status_;
  if (mode_ == mode::live)
    std::fprintf(stderr, "\r%s\033[K", line.c_str());
  else
    std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void progress::update(const std::string& status) {
  if (mode_ == mode::off) return;
  std::lock_guard lock(m_);
  status_ = status;
  draw_locked(false);
}

void progress::print(std::ostream& out, const std::string& line) {
  std::lock_guard lock(m_);
  const bool redraw = mode_ == mode::live && drawn_ && !finished_;
  if (redraw) std::fprintf(stderr, "\r\033[K"), std::fflush(stderr);
  out << line << '\n' << std::flush;
  if (redraw) {
    std::fprintf(stderr, "%s: %s\033[K", label_.c_str(), status_.c_str());
    std::fflush(stderr);
  }
}

void progress::finish() {
  std::lock_guard lock(m_);
  if (finished_) return;
  finished_ = true;
  if (mode_ == mode::live && drawn_) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

progress_ticker::progress_ticker(progress& p, std::function<std::string()> status) : p_(p), status_(std::move(status)) {
  if (!p_.enabled()) return;
  thread_ = std::thread([this] {
    std::unique_lock lock(m_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; })) {
      lock.unlock();
      p_.update(status_());
      lock.lock();
    }
  });
}

progress_ticker::~progress_ticker() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(m_);
    stop_ = true;
  }
  cv_.notify_one();
  thread_.join();
}

std::string duration_text(double s) {
  char b[32];
  if (s < 60) {
    std::snprintf(b, sizeof b, "%.1f s", s);
  } else {
    const long t = long(s + 0.5);
    if (t < 3600)
      std::snprintf(b, sizeof b, "%ld:%02ld", t / 60, t % 60);
    else
      std::snprintf(b, sizeof b, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  }
  return b;
}

std::string count_text(double n) {
  char b[32];
  if (n < 1e3)
    std::snprintf(b, sizeof b, "%.0f", n);
  else if (n < 1e6)
    std::snprintf(b, sizeof b, "%.1f k", n * 1e-3);
  else if (n < 1e9)
    std::snprintf(b, sizeof b, "%.1f M", n * 1e-6);
  else
    std::snprintf(b, sizeof b, "%.1f G", n * 1e-9);
  return b;
}

std::string count_of_text(std::uint64_t n, std::uint64_t total, const std::string& unit) {
  if (total == 0 || n > total) return count_text(double(n)) + " " + unit;
  return count_text(double(n)) + " of " + count_text(double(total)) + " " + unit;
}

std::string sim_time_text(double s) {
  char b[32];
  if (s < 1e-6)
    std::snprintf(b, sizeof b, "%.0f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(b, sizeof b, "%.1f us", s * 1e6);
  else if (s < 1)
    std::snprintf(b, sizeof b, "%.1f ms", s * 1e3);
  else
    std::snprintf(b, sizeof b, "%.2f s", s);
  return b;
}

}  // namespace twinsched::cli
