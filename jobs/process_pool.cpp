// The process pool: start up to K jobs, poll their pipes together, collect each as it ends.
#include "jobs/process_pool.hpp"

#include <fcntl.h>
#include <poll.h>

#include <algorithm>
#include <exception>
#include <vector>

namespace twinsched::jobs {

pool_summary run_pool(std::size_t count, const pool_options& o, const std::function<started_job(std::size_t)>& start,
                      const std::function<void(std::size_t, const std::string&)>& on_error) {
  using clock = std::chrono::steady_clock;
  struct slot {
    std::size_t index;
    started_job job;
  };
  std::vector<slot> running;
  pool_summary sum;
  std::size_t next = 0, end = count;  // end: one past the last job that may still start
  const unsigned width = std::max(1u, o.jobs);
  const auto t0 = clock::now();
  auto last_tick = t0;
  auto out_of_time = [&] {
    return o.wall_limit_s > 0 && std::chrono::duration<double>(clock::now() - t0).count() >= o.wall_limit_s;
  };
  auto ended = [&](std::size_t i, bool failed) {
    ++sum.done;
    if (!failed) return;
    ++sum.failed;
    if (o.stop_after_failure) end = std::min(end, i);
  };
  auto broke = [&](std::size_t i, const std::exception& e) {
    if (on_error) on_error(i, e.what());
    ended(i, true);
  };
  for (;;) {
    while (running.size() < width && next < end && !out_of_time()) {
      const std::size_t i = next++;
      ++sum.started;
      try {
        started_job job = start(i);
        ::fcntl(job.fd, F_SETFL, ::fcntl(job.fd, F_GETFL) | O_NONBLOCK);
        running.push_back({i, std::move(job)});
      } catch (const std::exception& e) {
        broke(i, e);
      }
    }
    if (running.empty()) break;  // nothing runs and nothing more may start
    std::vector<pollfd> fds;
    for (const auto& r : running) fds.push_back({r.job.fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), int(o.poll_wait.count()));
    for (std::size_t k = 0; k < running.size();) {
      if (!running[k].job.read_available()) {
        ++k;
        continue;
      }
      slot done = std::move(running[k]);
      running.erase(running.begin() + std::ptrdiff_t(k));
      try {
        ended(done.index, done.job.finish());
      } catch (const std::exception& e) {
        broke(done.index, e);
      }
    }
    const auto now = clock::now();
    if (o.tick && now - last_tick >= o.tick_every) {
      o.tick(sum.done, sum.failed);
      last_tick = now;
    }
  }
  return sum;
}

}  // namespace twinsched::jobs
