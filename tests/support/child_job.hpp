// A process-pool job (jobs/process_pool.hpp) whose child runs a function and writes what it returns: the tests' stand-in for a simulation process.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "jobs/process_pool.hpp"

namespace twinsched::testing {

/// Forks a child that writes `work()` to a pipe and exits 0 (`work` may instead crash or
/// _exit without writing). finish() leaves what arrived in `text` and returns
/// `failed(text)`; it throws, as finish_simulation does, if the child died of a signal or
/// wrote nothing.
inline jobs::started_job child_job(const std::function<std::string()>& work, std::string& text,
                                   std::function<bool(const std::string&)> failed) {
  int fd[2];
  if (::pipe(fd) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fd[0]);
    const std::string out = work();
    const char* p = out.data();
    std::size_t left = out.size();
    while (left > 0) {
      const ssize_t n = ::write(fd[1], p, left);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) ::_exit(4);
      p += n;
      left -= std::size_t(n);
    }
    ::_exit(0);
  }
  ::close(fd[1]);
  auto got = std::make_shared<std::string>();
  jobs::started_job j;
  j.fd = fd[0];
  j.read_available = [got, rfd = fd[0]] {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(rfd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
      if (n <= 0) return true;
      got->append(buf, std::size_t(n));
    }
  };
  j.finish = [got, pid, rfd = fd[0], &text, failed = std::move(failed)] {
    ::close(rfd);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFSIGNALED(status)) throw std::runtime_error("child died of signal " + std::to_string(WTERMSIG(status)));
    if (got->empty()) throw std::runtime_error("child exited with code " + std::to_string(WEXITSTATUS(status)) + " and no result");
    text = *got;
    return failed(text);
  };
  return j;
}

}  // namespace twinsched::testing
