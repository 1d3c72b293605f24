// Files the tool writes: checked before any work, written beside their place under a temporary
// name, and renamed into place whole, so that no command ever leaves a file half-written or
// overwrites one of its own inputs.
#pragma once
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace twinsched::files {

/// A path the command cannot use, found before any work: the CLI prints it on one line and
/// exits with code 2.
struct path_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// True when `a` and `b` name the same existing file (same device and inode: a hard link, a
/// symbolic link or `./x` for `x` all count), or the same path once made absolute.
bool same_file(const std::string& a, const std::string& b);

/// Refuses, with path_error, an output path that cannot be written: empty, a folder, a file
/// that is not writable (a read-only file is one its owner protected, though a rename could
/// replace it), in a folder that does not exist or cannot be written, or the same file as
/// one of `inputs` (empty ones are skipped).
/// `what` names the option in the message ("--trace", "-o").
void check_output(const std::string& path, const std::string& what, const std::vector<std::string>& inputs = {});

/// Refuses, with path_error, a folder outputs go into that cannot be used: not a folder,
/// not writable, or missing (with `may_create`, a missing folder is fine when its parent is
/// a writable folder: the command creates that one folder, never a chain of them).
void check_output_folder(const std::string& dir, const std::string& what, bool may_create);

/// Refuses, with path_error, an input path that is missing, a folder, or unreadable.
void check_input(const std::string& path, const std::string& what);

/// One output file. It is written under a temporary name in the destination's folder
/// (".NAME.PID.N.tmp"), and commit() renames it over the destination; destroyed without
/// commit() (an exception, an early return), the temporary file is removed and the
/// destination is as it was. A process killed at any moment leaves the destination whole:
/// rename(2) replaces it in one step (a killed process may leave its temporary file behind).
/// The file gets the mode a plain create would (0666 less the umask). A symbolic link is
/// followed (its target is replaced, the link stays); a device or FIFO (/dev/null) is
/// written in place, as nothing could be renamed over it.
class output_file {
 public:
  /// Creates the temporary file; throws path_error when it cannot (check_output first to
  /// name the problem before any work).
  explicit output_file(std::string path);
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// The temporary file as a C stream (for fwrite writers) or as a C++ stream; use one.
  std::FILE* c_file();
  std::ostream& stream();

  /// Flushes, syncs and closes the temporary file, then renames it over the destination.
  /// Throws std::runtime_error when a write failed (the destination is untouched then).
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_; }

 private:
  void discard() noexcept;

  std::string path_, tmp_;
  std::string dest_;  ///< what commit() renames tmp_ to; empty when writing a device in place
  std::FILE* c_ = nullptr;
  std::ofstream s_;
  bool done_ = false;
};

/// Writes `text` to `path` whole (output_file + commit).
void write_whole(const std::string& path, const std::string& text);

}  // namespace twinsched::files
