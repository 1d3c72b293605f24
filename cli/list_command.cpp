// `twinsched list`: the policies, idle strategies, workloads and scenario files a run can name.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/commands.hpp"
#include "models/registry.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"
#include "traces/run_summary.hpp"

namespace twinsched::cli {
namespace {

/// One line per registered policy or idle strategy (models/registry.hpp), then its knobs:
/// the scenario-file key, its default, its range and what it does.
template <class Entries, class Config>
void print_entries(const Entries& entries, const Config& defaults) {
  for (const auto& e : entries) {
    std::cout << "  " << std::left << std::setw(14) << e.name << e.description << '\n';
    for (const auto& k : e.knobs)
      std::cout << "      " << std::left << std::setw(16) << k.key << " = " << std::setw(8) << k.value_text(defaults)
                << "  " << std::setw(12) << k.range_text() << "  " << k.help << '\n';
  }
}

void print_workloads() {
  for (const auto* w : all_workloads()) {
    std::cout << w->name << "  " << w->description << '\n';
    for (const auto& p : w->params)
      std::cout << "  " << std::left << std::setw(12) << p.name << " = " << std::setw(10) << traces::param_text(p.default_value)
                << "  " << p.doc << '\n';
  }
}

void print_scenarios() {
  const std::string dir = stock_scenario_folder();
  std::cout << "stock scenarios in " << dir << " (run one by name: `twinsched run pingpong`, `twinsched run savina/count`):\n";
  for (const auto& name : stock_scenario_names()) {
    const std::string f = (std::filesystem::path(dir) / (name + ".toml")).string();
    std::cout << "  " << std::left << std::setw(24) << name << f << '\n';
    try {
      const scenario s = load_scenario_file(f);
      std::cout << "      " << s.name << ": " << s.description << '\n';
    } catch (const scenario_error& e) {
      std::cout << "      (does not load: " << e.what() << ")\n";
    }
  }
}

int list(const std::string& what) {
  if (what == "policies") print_entries(policy_catalog(), scheduler_config{});
  if (what == "idle") print_entries(idle_catalog(), idle_config{});
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
