// The `twinsched` command. `run` is served here; every other command is handed, by exec, to
// twinsched-full (cli/full_main.cpp), the whole command line. Why two programs: the simulator's
// libraries (SimGrid, and the ns-3 libraries SimGrid loads) are dozens of shared objects to map,
// relocate and construct at every start, and a run on real threads uses none of them, while the
// dynamic loader maps every library a program names before main. A benchmark launched many times,
// or a script of short runs, then pays for what it runs.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <system_error>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"

namespace {

/// Execs twinsched-full with the same arguments: beside this program (the build tree, or both in
/// one folder), else where the install puts it, `<prefix>/libexec`. Returns only on failure.
int hand_over(char** argv) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::canonical("/proc/self/exe", ec);
  if (ec) {  // never a guess relative to the working folder: a file there is not ours
    std::cerr << "twinsched: cannot find this program's folder (/proc/self/exe: " << ec.message()
              << "), where twinsched-full lies; `twinsched run` works without it\n";
    return 2;
  }
  const fs::path dir = self.parent_path();
  const fs::path beside = dir / "twinsched-full";
  const fs::path installed = (dir / TWINSCHED_LIBEXEC_FROM_BIN / "twinsched-full").lexically_normal();
  int err = 0;
  for (const fs::path& p : {beside, installed}) {
    ::execv(p.c_str(), argv);
    if (err == 0 || errno != ENOENT) err = errno;  // keep the first reason other than "not there"
  }
  std::cerr << "twinsched: cannot start the full command (" << std::strerror(err) << "): looked for " << beside.string()
            << " and " << installed.string() << "; `twinsched run` works without it\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "run") {
    const auto app = twinsched::cli::make_app();
    twinsched::cli::action chosen;
    twinsched::cli::add_run_command(*app, chosen);
    return twinsched::cli::parse_and_run(*app, chosen, argc, argv);
  }
  return hand_over(argv);
}
