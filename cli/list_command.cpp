// `twinsched list`: the policies, idle strategies, workloads and scenario files a run can name.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "cli/summary.hpp"
#include "scenarios/scenario_loader.hpp"

namespace twinsched::cli {
namespace {

/// One line per name in policy_names() / idle_names(); a name without one prints bare.
const std::map<std::string, std::string>& descriptions() {
  static const std::map<std::string, std::string> d{
      {"shared-queue", "one global FIFO of runnable actors; the thread-pool baseline (contends on one queue)"},
      {"distribution", "actors pre-assigned round robin to workers, one queue each; no balancing"},
      {"sharing", "distribution + hungry workers: a busy worker hands pending actors to idle ones"},
      {"stealing", "per-worker deques; owner pops LIFO (or FIFO with fifo), idle workers steal (steal = one|half)"},
      {"donation", "a backed-up actor's queued messages are donated to an idle equal actor (needs groups)"},
      {"adaptive", "actors bound to threads; an overloaded thread starts another and migrates actors; idle ones retire"},
      {"busy-spin", "spin without pause; lowest wake-up latency, burns a core"},
      {"noop", "return at once and look again; like busy-spin, without the pause instruction"},
      {"yield", "std::this_thread::yield() between looks; gives the core to other threads"},
      {"sleep", "park for a fixed sleep_us, then look again"},
      {"backoff", "max_spins spins, then max_yields yields, then parks doubling from min_park_us to max_park_us"},
      {"park", "block until another worker wakes it; saves the core, pays a wake-up"},
  };
  return d;
}

void print_names(const std::vector<std::string>& names) {
  for (const auto& n : names) {
    auto it = descriptions().find(n);
    std::cout << "  " << std::left << std::setw(14) << n << (it == descriptions().end() ? "" : it->second) << '\n';
  }
}

void print_workloads() {
  for (const auto* w : all_workloads()) {
    std::cout << w->name << "  " << w->description << '\n';
    for (const auto& p : w->params)
      std::cout << "  " << std::left << std::setw(12) << p.name << " = " << std::setw(10) << param_text(p.default_value)
                << "  " << p.doc << '\n';
  }
}

void print_scenarios() {
  const std::string dir = stock_scenario_folder();
  std::cout << "stock scenarios in " << dir << " (run one by name: `twinsched run pingpong`):\n";
  for (const auto& f : list_scenario_files(dir)) {
    std::cout << "  " << std::left << std::setw(24) << std::filesystem::path(f).stem().string() << f << '\n';
    try {
      const scenario s = load_scenario_file(f);
      std::cout << "      " << s.name << ": " << s.description << '\n';
    } catch (const scenario_error& e) {
      std::cout << "      (does not load: " << e.what() << ")\n";
    }
  }
}

int list(const std::string& what) {
  if (what == "policies") print_names(policy_names());
  if (what == "idle") print_names(idle_names());
  if (what == "workloads") print_workloads();
  if (what == "scenarios") print_scenarios();
  if (what == "machines") print_machines(std::cout);
  return 0;
}

}  // namespace

void add_list_command(CLI::App& app, action& chosen) {
  auto what = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("list", "Show the names a scenario file or a flag can use, with what they mean.");
  cmd->add_option("what", *what,
                  "policies: scheduling policies ([scheduler] policy, --policy); "
                  "idle: idle strategies ([scheduler.idle] strategy, --idle); "
                  "workloads: workloads with their parameters, defaults and meaning ([workload]); "
                  "scenarios: the stock scenarios, which `run`, `sim`, `validate` and `explore` take by name; "
                  "machines: the stock machine models for `--machine`")
      ->type_name("WHAT")
      ->required()
      ->check(CLI::IsMember({"policies", "idle", "workloads", "scenarios", "machines"}));
  cmd->footer("Examples:\n  twinsched list policies\n  twinsched list workloads");
  cmd->callback([&chosen, what] { chosen = [what] { return list(*what); }; });
}

}  // namespace twinsched::cli
