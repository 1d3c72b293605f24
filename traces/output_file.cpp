// Output files written under a temporary name and renamed into place; the checks made on paths before any work.
#include "output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace twinsched::files {
namespace fs = std::filesystem;

namespace {

std::string reason() { return std::strerror(errno); }

/// The folder a path's file lives in ("." for a bare name).
std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

/// Where the file must be put: a symbolic link's target (the link stays a link), else `path`.
std::string destination_of(const std::string& path) {
  struct stat st{};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  std::error_code ec;
  const fs::path target = fs::canonical(path, ec);
  return ec ? path : target.string();  // a dangling link is replaced like a missing file
}

/// An existing file that is not a regular file or a folder (/dev/null, a terminal, a FIFO):
/// written in place, since renaming over it would replace the device node itself.
bool is_special(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  struct stat sa{}, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  // absolute first: weakly_canonical leaves a relative path relative when none of it exists
  auto normal = [](const std::string& p, fs::path& out) {
    std::error_code ec;
    out = fs::absolute(p, ec);
    if (!ec) out = fs::weakly_canonical(out, ec);
    return !ec;
  };
  fs::path pa, pb;
  return normal(a, pa) && normal(b, pb) && pa == pb;
}

void check_output(const std::string& path, const std::string& what, const std::vector<std::string>& inputs) {
  if (path.empty()) throw path_error(what + ": an empty output path");
  for (const std::string& in : inputs)
    if (same_file(path, in))
      throw path_error(what + " " + path + ": is the same file as the input " + in +
                       "; writing it would destroy that input, so name another file");
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw path_error(what + " " + path + ": is a folder; name a file in it");
    if (!S_ISREG(st.st_mode)) {  // a device or FIFO: written in place
      if (::access(path.c_str(), W_OK) != 0) throw path_error(what + " " + path + ": cannot write (" + reason() + ")");
      return;
    }
    if (::access(path.c_str(), W_OK) != 0)
      throw path_error(what + " " + path + ": the file exists and is not writable (" + reason() +
                       "); make it writable to replace it, or name another file");
  }
  const std::string dir = folder_of(destination_of(path));
  if (::stat(dir.c_str(), &st) != 0)
    throw path_error(what + " " + path + ": folder " + dir + " does not exist (" + reason() + ")");
  if (!S_ISDIR(st.st_mode)) throw path_error(what + " " + path + ": " + dir + " is not a folder");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw path_error(what + " " + path + ": cannot write in folder " + dir + " (" + reason() + ")");
}

void check_output_folder(const std::string& dir, const std::string& what, bool may_create) {
  if (dir.empty()) throw path_error(what + ": an empty folder path");
  struct stat st{};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw path_error(what + " " + dir + ": is not a folder");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      throw path_error(what + " " + dir + ": cannot write in this folder (" + reason() + ")");
    return;
  }
  if (!may_create) throw path_error(what + " " + dir + ": no such folder (" + reason() + "); create it first");
  // the parent must exist: a typo in a long path makes no chain of folders
  fs::path normal = fs::path(dir).lexically_normal();
  if (!normal.has_filename()) normal = normal.parent_path();  // "a/b/" names folder b
  const std::string parent = folder_of(normal.string());
  if (::stat(parent.c_str(), &st) != 0)
    throw path_error(what + " " + dir + ": folder " + parent + " does not exist (" + reason() + ")");
  if (!S_ISDIR(st.st_mode)) throw path_error(what + " " + dir + ": " + parent + " is not a folder");
  if (::access(parent.c_str(), W_OK | X_OK) != 0)
    throw path_error(what + " " + dir + ": cannot create a folder in " + parent + " (" + reason() + ")");
}

void check_input(const std::string& path, const std::string& what) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0) throw path_error(what + " " + path + ": cannot open (" + reason() + ")");
  if (S_ISDIR(st.st_mode)) throw path_error(what + " " + path + ": is a folder, not a file");
  if (::access(path.c_str(), R_OK) != 0) throw path_error(what + " " + path + ": cannot read (" + reason() + ")");
}

output_file::output_file(std::string path) : path_(std::move(path)) {
  if (is_special(path_)) {  // no temporary file: the device takes the bytes as they come
    tmp_ = path_;
    return;
  }
  const std::string dest = destination_of(path_);
  const std::string stem =
      (fs::path(folder_of(dest)) / ("." + fs::path(dest).filename().string() + "." + std::to_string(::getpid()) + "."))
          .string();
  // O_EXCL with mode 0666 gives the file the mode a plain create would (the kernel applies the
  // umask); a name left by a killed process that had this pid is skipped.
  static std::atomic<unsigned> serial{0};
  for (int tries = 0;; ++tries) {
    std::string name = stem + std::to_string(serial.fetch_add(1, std::memory_order_relaxed)) + ".tmp";
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      tmp_ = std::move(name);
      dest_ = dest;
      return;
    }
    if (errno != EEXIST || tries >= 1000)
      throw path_error(path_ + ": cannot create a file in its folder (" + reason() + ")");
  }
}

output_file::~output_file() {
  if (!done_) discard();
}

void output_file::discard() noexcept {
  if (c_) std::fclose(c_), c_ = nullptr;
  if (s_.is_open()) s_.close();
  if (!dest_.empty()) ::unlink(tmp_.c_str());  // never a device written in place
  done_ = true;
}

std::FILE* output_file::c_file() {
  if (!c_) {
    c_ = std::fopen(tmp_.c_str(), "wb");
    if (!c_) throw std::runtime_error(path_ + ": cannot write (" + reason() + ")");
  }
  return c_;
}

std::ostream& output_file::stream() {
  if (!s_.is_open()) {
    s_.open(tmp_, std::ios::binary | std::ios::trunc);
    if (!s_) throw std::runtime_error(path_ + ": cannot write (" + reason() + ")");
  }
  return s_;
}

void output_file::commit() {
  const bool renamed = !dest_.empty();
  bool ok = true;
  int err = 0;
  auto failed = [&] {
    if (ok) err = errno;
    ok = false;
  };
  // fsync before the rename: after a crash the name then holds the old file or the whole new one
  if (c_) {
    if (std::fflush(c_) != 0 || (renamed && ::fsync(::fileno(c_)) != 0)) failed();
    if (std::fclose(c_) != 0) failed();
    c_ = nullptr;
  }
  if (s_.is_open()) {
    s_.flush();
    if (!s_) failed();
    s_.close();
    if (!s_) failed();
  }
  if (ok && renamed) {
    const int fd = ::open(tmp_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) failed();
    if (fd >= 0) ::close(fd);
  }
  if (!ok) {
    discard();
    throw std::runtime_error(path_ + ": cannot write (" + (err ? std::strerror(err) : "an I/O error") + ")");
  }
  if (renamed && std::rename(tmp_.c_str(), dest_.c_str()) != 0) {
    const std::string why = reason();
    discard();
    throw std::runtime_error(path_ + ": cannot put the written file in place (" + why + ")");
  }
  done_ = true;
}

void write_whole(const std::string& path, const std::string& text) {
  output_file f(path);
  f.stream() << text;
  f.commit();
}

}  // namespace twinsched::files
