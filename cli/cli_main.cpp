// The whole command line of `twinsched`, for its own main() and for a user's binary that registered workloads of its
// own: parses the command line, runs the chosen subcommand, maps errors to exit codes.
#include "cli/cli_main.hpp"

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "models/config.hpp"
#include "scenarios/scenario_loader.hpp"
#include "traces/output_file.hpp"
#include "traces/trace_error.hpp"

namespace {

constexpr const char* command_footer = R"(Examples:
  twinsched run                                   run the built-in forward scenario on 2 threads
  twinsched run pingpong --idle park --workers 2
  twinsched run pi --policy shared-queue --json
  twinsched sim pi --cores 16                     pi on a simulated 16-core machine
  twinsched run forward --trace a.tst && twinsched trace info a.tst
  twinsched explore pingpong --policy sharing --idle park --cores 3 --shrink
                                                  search schedules for a broken invariant
  twinsched report a.tst -o a.html                an HTML report: timelines, delays, critical path
  twinsched sweep sweep.toml --jobs 2 --report s.html   every combination of policies, cores, seeds, ...
  twinsched frontier open-light --svg f.svg       p99 latency against CPU, every idle strategy x policy
  twinsched list policies                         what each policy does
  twinsched list workloads                        workload parameters for --param
  twinsched <command> --help                      every option of a command, with defaults
Exit codes: 0 OK, 1 a run's verdict failed, 2 invalid scenario or command line.)";

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

/// The first word, when it is not a command: `help [COMMAND]` prints that help (exit 0);
/// anything else is exit 2 naming the nearest command. -1: a command (or an option), for CLI11.
int not_a_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return -1;
  const std::string word = argv[1];
  const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
  auto named = [&](const std::string& w) -> CLI::App* {
    for (CLI::App* c : commands)
      if (c->get_name() == w) return c;
    return nullptr;
  };
  if (named(word)) return -1;
  if (word == "help") {
    CLI::App* c = argc > 2 ? named(argv[2]) : nullptr;
    if (argc > 2 && !c) return not_a_command(app, argc - 1, argv + 1);
    std::cout << (c ? c->help(app.get_name()) : app.help());
    return 0;
  }
  std::vector<std::string> names;
  std::string all;
  for (CLI::App* c : commands) {
    names.push_back(c->get_name());
    all += (all.empty() ? "" : ", ") + c->get_name();
  }
  names.push_back("help");
  const std::string near = twinsched::nearest_name(word, names);
  const std::string hint = near.empty() ? "the commands: " + all : "did you mean `twinsched " + near + "`?";
  std::cerr << "twinsched: '" << word << "' is not a command; " << hint << " (see `twinsched --help`)\n";
  return 2;
}

}  // namespace

namespace twinsched {

int cli_main(int argc, char** argv) {
  CLI::App app{
      "twinsched: actor scheduling policies written once, run on real cores and on a simulated multicore "
      "machine (SimGrid). A scenario file (TOML) names a workload and a scheduler configuration.",
      "twinsched"};
  app.set_version_flag("--version", std::string("twinsched ") + TWINSCHED_VERSION);
  app.require_subcommand(1);
  app.get_formatter()->column_width(30);
  app.failure_message(one_line);

  cli::action chosen;
  cli::add_run_command(app, chosen);
  cli::add_list_command(app, chosen);
  cli::add_sim_command(app, chosen);
  cli::add_profile_command(app, chosen);
  cli::add_whatif_command(app, chosen);
  cli::add_frontier_command(app, chosen);
  cli::add_validate_command(app, chosen);
  cli::add_accuracy_command(app, chosen);
  cli::add_trace_command(app, chosen);
  cli::add_diff_command(app, chosen);
  cli::add_export_command(app, chosen);
  cli::add_report_command(app, chosen);
  cli::add_analyze_command(app, chosen);
  cli::add_replay_command(app, chosen);
  cli::add_explore_command(app, chosen);
  cli::add_sweep_command(app, chosen);
  cli::add_suite_command(app, chosen);
  cli::add_calibrate_command(app, chosen);
  cli::add_completion_command(app, chosen);
  app.footer(command_footer);  // after the subcommands: each has its own footer or none, not this one

  if (const int rc = not_a_command(app, argc, argv); rc >= 0) return rc;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);  // prints help, the version, or the usage error
    return rc == 0 ? 0 : 2;
  } catch (const cli::usage_error& e) {  // a bad value: "--workers takes ..., not '0'"
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

}  // namespace twinsched
