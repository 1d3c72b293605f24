// Runs a function in a forked child process and returns its result: each simulation a test runs needs a process of its own (SimGrid's engine exists once per process).
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace twinsched::testing {

namespace child_detail {
inline bool write_all(int fd, const void* data, std::size_t len) {
  const char* p = static_cast<const char*>(data);
  while (len > 0) {
    ssize_t n = ::write(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= std::size_t(n);
  }
  return true;
}
inline bool read_all(int fd, void* data, std::size_t len) {
  char* p = static_cast<char*>(data);
  while (len > 0) {
    ssize_t n = ::read(fd, p, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= std::size_t(n);
  }
  return true;
}
}  // namespace child_detail

/// Calls `f(note)` in a forked child and returns what it returned (R: trivially copyable);
/// `note`, if given, receives the text the child left in its argument. Throws
/// std::runtime_error with the child's exception message, or with how the child died.
template <class R, class F>
R in_child(F f, std::string* note = nullptr) {
  static_assert(std::is_trivially_copyable_v<R>);
  int fd[2];
  if (::pipe(fd) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::fflush(nullptr);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::close(fd[0]);
    R value{};
    std::string text;
    bool ok = false;
    try {
      value = f(text);
      ok = true;
    } catch (const std::exception& e) {
      text = e.what();
    }
    std::size_t len = text.size();
    bool sent = child_detail::write_all(fd[1], &ok, sizeof ok) && child_detail::write_all(fd[1], &value, sizeof value) &&
                child_detail::write_all(fd[1], &len, sizeof len) && child_detail::write_all(fd[1], text.data(), len);
    ::_exit(sent ? 0 : 4);  // no destructors: SimGrid's engine is never torn down
  }
  ::close(fd[1]);
  bool ok = false;
  R value{};
  std::size_t len = 0;
  std::string text;
  bool got = child_detail::read_all(fd[0], &ok, sizeof ok) && child_detail::read_all(fd[0], &value, sizeof value) &&
             child_detail::read_all(fd[0], &len, sizeof len);
  if (got) {
    text.resize(len);
    got = child_detail::read_all(fd[0], text.data(), len);
  }
  ::close(fd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!got)
    throw std::runtime_error("the child process " + (WIFSIGNALED(status) ? "died of signal " + std::to_string(WTERMSIG(status))
                                                                          : "exited with code " + std::to_string(WEXITSTATUS(status))) +
                             " without a full result");
  if (!ok) throw std::runtime_error("the child failed: " + text);
  if (note) *note = text;
  return value;
}

}  // namespace twinsched::testing
