// The whole command line of `twinsched`, for its own main() and for a user's binary that registered workloads of its
// own: every subcommand, and `help COMMAND` or a mistyped command word answered before CLI11 parses.
#include "cli/cli_main.hpp"

#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/command_line.hpp"
#include "cli/commands.hpp"
#include "scenarios/scenario_loader.hpp"

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
  const auto app = cli::make_app();
  cli::action chosen;
  cli::add_run_command(*app, chosen);
  cli::add_list_command(*app, chosen);
  cli::add_sim_command(*app, chosen);
  cli::add_profile_command(*app, chosen);
  cli::add_whatif_command(*app, chosen);
  cli::add_frontier_command(*app, chosen);
  cli::add_validate_command(*app, chosen);
  cli::add_accuracy_command(*app, chosen);
  cli::add_trace_command(*app, chosen);
  cli::add_diff_command(*app, chosen);
  cli::add_export_command(*app, chosen);
  cli::add_report_command(*app, chosen);
  cli::add_analyze_command(*app, chosen);
  cli::add_replay_command(*app, chosen);
  cli::add_explore_command(*app, chosen);
  cli::add_sweep_command(*app, chosen);
  cli::add_suite_command(*app, chosen);
  cli::add_calibrate_command(*app, chosen);
  cli::add_completion_command(*app, chosen);
  app->footer(command_footer);  // after the subcommands: each has its own footer or none, not this one

  if (const int rc = not_a_command(*app, argc, argv); rc >= 0) return rc;
  return cli::parse_and_run(*app, chosen, argc, argv);
}

}  // namespace twinsched
