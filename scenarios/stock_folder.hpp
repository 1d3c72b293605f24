// Where the stock files a name stands for live (scenarios, machine models): one folder per
// kind, found from the running executable, never from the working directory.
#pragma once
#include <filesystem>
#include <string>
#include <system_error>

namespace twinsched {

/// The folder of this executable's stock `kind` files ("scenarios", "machines").
///
/// Run from inside `build_tree` (the build folder: the command, the tests), it is
/// `source_folder`, the files it was built with. Anywhere else it is
/// `<bin>/<share_from_bin>/<kind>` beside the executable, which for an installed
/// `<prefix>/bin/twinsched` is `<prefix>/share/twinsched/<kind>`, wherever the prefix was
/// moved. Nothing else is searched: a file in the working directory never stands in for a
/// stock one, and an installed command never reads the tree it was built from. The folder
/// may not exist; the caller's error names it.
///
/// The three strings are compiled in by each library's CMakeLists.txt, so this is inline
/// rather than one definition that would need them all.
inline std::string stock_folder(const std::string& kind, const std::string& build_tree,
                                const std::string& share_from_bin, const std::string& source_folder) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) return source_folder;  // no /proc: the build's own files are the best guess
  const fs::path inside = exe.lexically_relative(build_tree);
  if (!build_tree.empty() && !inside.empty() && *inside.begin() != "..") return source_folder;
  return (exe.parent_path() / share_from_bin / kind).lexically_normal().string();
}

}  // namespace twinsched
