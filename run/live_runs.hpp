// The runs in progress in this process, so that a deadline that expires can say what each was doing.
//
// run_on_threads registers its scheduler's hang report for the length of the run; simulate()
// registers the child process of each simulation (what it is, and how to kill it). A
// deadline (deadline.hpp) that expires prints every registered report and kills every
// registered child before it ends the process, so a hang neither goes silent nor leaves
// an orphan holding the test runner's pipe.
#pragma once
#include <functional>
#include <string>

namespace twinsched::live_runs {

/// Registered while it lives. `report` says what the run is doing (called from the
/// deadline's thread, without stopping the run); `on_expire` (optional) runs before the
/// process ends on a deadline.
class registration {
 public:
  explicit registration(std::function<std::string()> report, std::function<void()> on_expire = {});
  ~registration();
  registration(const registration&) = delete;
  registration& operator=(const registration&) = delete;

 private:
  unsigned long long id_;
};

/// Every registered report, in registration order, each after a "---" line ("no run in
/// progress" if none). A run may register several (run_on_threads: its scenario, then its
/// scheduler's state).
std::string report_all();
/// Calls every live run's on_expire.
void expire_all();

}  // namespace twinsched::live_runs
