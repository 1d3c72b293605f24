// Progress on stderr for long commands: a line redrawn in place on a terminal, plain periodic lines or nothing elsewhere.
//
// Use:
//   progress p("sim", progress::mode_for(json));   // live on a terminal, silent under --json or when piped
//   p.update("forward on 16 cores: simulated 12.3 ms, 4.1 M of 12.0 M messages, 2.4 s");
//                                                   // cheap; drawn at most 4 times a second, after the first second
//   p.print(std::cout, row);                        // a permanent line, printed above the live one
//   { progress_ticker t(p, [&] { return "running " + p.elapsed_text(); }); blocking_call(); }
//   p.finish();                                     // erases the live line (the destructor does too)
// Never start a progress_ticker around code that forks (simulate(), start_simulation()):
// poll the child and call update() from the same thread instead (cli/sim_progress.hpp does).
// A status says what is happening, not only how long it has taken: simulated time reached,
// messages processed, events read (cli/sim_progress.hpp builds those of runs).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace twinsched::cli {

class progress {
 public:
  /// live: one line redrawn in place (needs a terminal); lines: a plain line every `every_s`
  /// seconds, the first after max(delay_s, every_s) (for logs); off: nothing.
  enum class mode { live, lines, off };
  /// live if stderr is a terminal and not `quiet` (--json), else off.
  static mode mode_for(bool quiet);
  /// live on a terminal, else lines (unless `quiet`): for commands whose logs should show progress.
  static mode mode_or_lines(bool quiet);

  /// Nothing is drawn before `delay_s` has passed: short commands stay silent.
  explicit progress(std::string label, mode m, double delay_s = 1.0, double every_s = 10.0);
  ~progress();
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;

  /// Sets the status shown after the label; redraws if due. Thread-safe.
  void update(const std::string& status);
  /// Writes `line` and a newline to `out` without garbling the live line (which is redrawn after).
  void print(std::ostream& out, const std::string& line);
  /// Erases the live line; later updates draw nothing.
  void finish();
  bool enabled() const { return mode_ != mode::off; }
  /// Seconds since construction.
  double elapsed_s() const;
  /// elapsed_s() as "4.2 s" or "1:05".
  std::string elapsed_text() const;

 private:
  void draw_locked(bool force);
  std::string label_, status_;
  mode mode_;
  double delay_s_, every_s_;
  std::chrono::steady_clock::time_point t0_, last_draw_{};
  bool drawn_ = false, finished_ = false;
  std::mutex m_;
};

/// Calls `status()` and updates `p` every 250 ms from a thread of its own while it lives,
/// for a blocking call that reports nothing (a run on threads). Starts no thread if `p` is off.
class progress_ticker {
 public:
  progress_ticker(progress& p, std::function<std::string()> status);
  ~progress_ticker();
  progress_ticker(const progress_ticker&) = delete;
  progress_ticker& operator=(const progress_ticker&) = delete;

 private:
  progress& p_;
  std::function<std::string()> status_;
  std::mutex m_;
  bool stop_ = false;
  std::condition_variable cv_;
  std::thread thread_;
};

/// "4.2 s" below a minute, "1:05" above, "1:02:03" above an hour.
std::string duration_text(double s);
/// A count for a progress line: "950", "12.3 k", "4.1 M", "2.0 G".
std::string count_text(double n);
/// "4.1 M of 12.0 M messages"; "4.1 M messages" when the total is unknown (0) or passed.
std::string count_of_text(std::uint64_t n, std::uint64_t total, const std::string& unit);
/// Simulated time: "850 ns", "12.3 us", "12.3 ms", "1.23 s".
std::string sim_time_text(double s);

}  // namespace twinsched::cli
