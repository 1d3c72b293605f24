// `twinsched completion bash`: the bash completion script, made from the command's own parser so
// that it names every subcommand, option and choice the parser accepts and cannot drift from it.
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/bash_completion.hpp"
#include "cli/commands.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"

namespace twinsched::cli {
namespace {

/// Read off the type name `--help` shows: a choice list ("P:{a,b}" from CLI::IsMember), SCENARIO
/// and MACHINE (a stock name or a file), or anything naming a file, folder or trace.
completion_values values_of(const CLI::Option* o) {
  const std::string t = o->get_type_name();
  const std::string base = t.substr(0, t.find(':'));
  completion_values v;
  if (const auto open = t.find('{'); open != std::string::npos) {
    std::stringstream list(t.substr(open + 1, t.find('}', open) - open - 1));
    for (std::string w; std::getline(list, w, ',');) v.words.push_back(w);
  }
  const auto has = [&](const char* s) { return base.find(s) != std::string::npos; };
  if (base == "SCENARIO") {
    v.words = stock_scenario_names();
    v.files = completion_values::toml_file;
  } else if (base == "MACHINE") {
    v.words = machine_names();
    v.files = completion_values::toml_file;
  } else if (has(".toml")) {
    v.files = completion_values::toml_file;
  } else if (has("FILE") || has("DIR") || has("TRACE") || base == "OUT" || base == "PREFIX") {
    v.files = completion_values::any_file;
  }
  return v;
}

/// Every subcommand under `app` (the hidden ones too: the parser accepts them), with its path,
/// as completion sees it.
void walk(CLI::App* app, const std::string& path, std::vector<completion_command>& out) {
  completion_command c{path, {}, {}, {}, {}};
  for (CLI::Option* o : app->get_options()) {
    if (o->nonpositional()) {
      for (const auto& n : o->get_snames()) c.options.push_back("-" + n);
      for (const auto& n : o->get_lnames()) c.options.push_back("--" + n);
      if (o->get_items_expected_max() == 0) continue;  // a flag
      const completion_values v = values_of(o);
      for (const auto& n : o->get_lnames()) c.option_values.emplace_back("--" + n, v);
      for (const auto& n : o->get_snames()) c.option_values.emplace_back("-" + n, v);
    } else {
      const completion_values v = values_of(o);
      c.arguments.words.insert(c.arguments.words.end(), v.words.begin(), v.words.end());
      c.arguments.files = std::max(c.arguments.files, v.files);
    }
  }
  const auto subs = app->get_subcommands([](CLI::App*) { return true; });
  for (CLI::App* sub : subs) {
    c.subcommands.push_back(sub->get_name());
    if (!sub->get_group().empty()) c.arguments.words.push_back(sub->get_name());
  }
  out.push_back(std::move(c));
  for (CLI::App* sub : subs) walk(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

}  // namespace

void add_completion_command(CLI::App& app, action& chosen) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "completion", "Print the shell completion script: subcommands, options, policy, idle, scenario and machine names.");
  cmd->add_option("shell", *shell, "The shell (bash).")->type_name("SHELL")->required()->check(CLI::IsMember({"bash"}));
  cmd->footer(
      "An installed twinsched has it in share/bash-completion/completions/twinsched, where bash-completion finds it.\n"
      "Examples:\n"
      "  source <(twinsched completion bash)             completion in this shell\n"
      "  twinsched completion bash > ~/.local/share/bash-completion/completions/twinsched");
  // the callback holds `shell`: the option writes into it during the parse, after this returns
  cmd->callback([&chosen, &app, shell] {
    chosen = [&app] {
      std::vector<completion_command> commands;
      walk(&app, "", commands);
      write_bash_completion(std::cout, commands);
      return 0;
    };
  });
}

}  // namespace twinsched::cli
