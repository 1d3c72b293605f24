// A wall-clock deadline that turns a hang into a failure with a state report (deadline.hpp).
#include "run/deadline.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

#include "run/live_runs.hpp"

#if defined(TWINSCHED_TSAN)
// The report reads fields the workers write without synchronization, on purpose (it runs
// only when the run is presumed stuck; models/worker.hpp): tell TSan not to report them.
extern "C" void AnnotateIgnoreReadsBegin(const char* file, int line);
extern "C" void AnnotateIgnoreReadsEnd(const char* file, int line);
#define TWINSCHED_IGNORE_READS_BEGIN() AnnotateIgnoreReadsBegin(__FILE__, __LINE__)
#define TWINSCHED_IGNORE_READS_END() AnnotateIgnoreReadsEnd(__FILE__, __LINE__)
#else
#define TWINSCHED_IGNORE_READS_BEGIN() (void)0
#define TWINSCHED_IGNORE_READS_END() (void)0
#endif

namespace twinsched {

struct deadline::impl {
  std::mutex m;
  std::condition_variable cv;
  bool started = false;   // under m: the watcher is past its start-up (see the constructor)
  bool disarmed = false;  // under m
  std::thread watcher;
};

namespace {
[[noreturn]] void expire(double seconds, const std::string& what) {
  std::fprintf(stderr, "\ntwinsched: DEADLINE of %.0f s passed (a hang?): %s\n", seconds, what.c_str());
  std::fflush(stderr);
  TWINSCHED_IGNORE_READS_BEGIN();
  std::string state = live_runs::report_all();
  TWINSCHED_IGNORE_READS_END();
  std::fputs(state.c_str(), stderr);
  std::fputs("twinsched: ending the process: hung workers cannot be stopped\n", stderr);
  std::fflush(stderr);
  live_runs::expire_all();
  std::_Exit(1);
}
}  // namespace

// The constructor returns only once the watcher thread is running its own code. Tests fork
// simulation children right after arming a deadline (sim/run_sim.cpp), and a fork copies
// every lock as it stands: a watcher still in its start-up inside the sanitizer runtimes
// (which register the thread and set up its stacks under their own locks) could leave a
// lock held forever in the child. A simulation child of an ASan build once hung right after a
// deadline was armed; that this was the cause is a suspicion, not proven (it did not
// reproduce). Once started, the watcher only waits on `cv`.
deadline::deadline(double seconds, std::string what) : impl_(std::make_unique<impl>()) {
  impl* I = impl_.get();
  I->watcher = std::thread([I, seconds, what = std::move(what)] {
    std::unique_lock<std::mutex> lk(I->m);
    I->started = true;
    I->cv.notify_all();
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    if (!I->cv.wait_until(lk, until, [I] { return I->disarmed; })) {
      lk.unlock();
      expire(seconds, what);
    }
  });
  std::unique_lock<std::mutex> lk(I->m);
  I->cv.wait(lk, [I] { return I->started; });
}

deadline::~deadline() {
  {
    std::lock_guard<std::mutex> g(impl_->m);
    impl_->disarmed = true;
  }
  impl_->cv.notify_all();
  impl_->watcher.join();
}

double deadline::build_slowdown() {
#if defined(TWINSCHED_TSAN)
  return 5;
#elif defined(__SANITIZE_ADDRESS__)
  return 2;
#else
  return 1;
#endif
}

}  // namespace twinsched
