// The top-level App and the exit-code mapping shared by `twinsched` (run alone) and the whole command line.
#include "cli/command_line.hpp"

#include <exception>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/option_checks.hpp"
#include "models/config.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_error.hpp"

namespace twinsched::cli {
namespace {

/// CLI11's own parse errors (an unknown option or subcommand, a value not in a set) as one
/// line in the form of every other error, naming the help of the subcommand that was chosen.
std::string one_line(const CLI::App* app, const CLI::Error& e) {
  std::string help = "twinsched";
  for (const CLI::App* a = app; !a->get_subcommands().empty();) {
    a = a->get_subcommands().front();
    help += " " + a->get_name();
  }
  return "twinsched: " + std::string(e.what()) + " (see `" + help + " --help`)\n";
}

}  // namespace

std::unique_ptr<CLI::App> make_app() {
  auto app = std::make_unique<CLI::App>(
      "twinsched: actor scheduling policies written once, run on real cores and on a simulated multicore "
      "machine (SimGrid). A scenario file (TOML) names a workload and a scheduler configuration.",
      "twinsched");
  app->set_version_flag("--version", std::string("twinsched ") + TWINSCHED_VERSION);
  app->require_subcommand(1);
  app->get_formatter()->column_width(30);
  app->failure_message(one_line);
  return app;
}

int parse_and_run(CLI::App& app, const action& chosen, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help, the version, or the usage error
    return rc == 0 ? 0 : 2;
  } catch (const usage_error& e) {  // a bad value: "--workers takes ..., not '0'"
    std::cerr << "twinsched: " << e.what() << '\n';
    return 2;
  }
  try {
    return chosen ? chosen() : 2;
  } catch (const scenario_error& e) {
    std::cerr << "twinsched: " << e.what() << '\n';
    return 2;
  } catch (const config_error& e) {
    std::cerr << "twinsched: " << e.what() << '\n';
    return 2;
  } catch (const traces::trace_error& e) {  // an unreadable trace: "FILE: byte N: ..."
    std::cerr << "twinsched: " << e.what() << '\n';
    return 2;
  } catch (const files::path_error& e) {  // an output over an input, a missing folder, ...
    std::cerr << "twinsched: " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "twinsched: run failed: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace twinsched::cli
