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

#include "cli/commands.hpp"
#include "scenarios/scenario_loader.hpp"
#include "sim/machine_model.hpp"

namespace twinsched::cli {
namespace {

/// What may stand for an option's value or a positional argument: these words, file names, or both.
struct values {
  std::vector<std::string> words;
  enum { none, any_file, toml_file } files = none;
};

/// Read off the type name `--help` shows: a choice list ("P:{a,b}" from CLI::IsMember), SCENARIO
/// and MACHINE (a stock name or a file), or anything naming a file, folder or trace.
values values_of(const CLI::Option* o) {
  const std::string t = o->get_type_name();
  const std::string base = t.substr(0, t.find(':'));
  values v;
  if (const auto open = t.find('{'); open != std::string::npos) {
    std::stringstream list(t.substr(open + 1, t.find('}', open) - open - 1));
    for (std::string w; std::getline(list, w, ',');) v.words.push_back(w);
  }
  const auto has = [&](const char* s) { return base.find(s) != std::string::npos; };
  if (base == "SCENARIO") {
    v.words = stock_scenario_names();
    v.files = values::toml_file;
  } else if (base == "MACHINE") {
    v.words = machine_names();
    v.files = values::toml_file;
  } else if (has(".toml")) {
    v.files = values::toml_file;
  } else if (has("FILE") || has("DIR") || has("TRACE") || base == "OUT" || base == "PREFIX") {
    v.files = values::any_file;
  }
  return v;
}

/// `s` in single quotes, for the generated script.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& w : v) s += (s.empty() ? "" : " ") + w;
  return s;
}

/// The case arm that completes `v`: `'PATTERN') words='...' files=any|toml ;;`.
std::string arm(const std::string& pattern, const values& v) {
  std::string s = "      " + quoted(pattern) + ")";
  if (!v.words.empty()) s += " words=" + quoted(joined(v.words));
  if (v.files != values::none) s += v.files == values::toml_file ? " files=toml" : " files=any";
  return s + " ;;\n";
}

/// Every subcommand under `app` (the hidden ones too: the parser accepts them), with its path.
void walk(CLI::App* app, const std::string& path, std::vector<std::pair<std::string, CLI::App*>>& out) {
  out.emplace_back(path, app);
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; }))
    walk(sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

void print_bash(CLI::App& root, std::ostream& out) {
  std::vector<std::pair<std::string, CLI::App*>> commands;
  walk(&root, "", commands);
  std::string steps, option_values, options, arguments;
  for (auto& [path, app] : commands) {
    values opts, args, subs;
    for (CLI::Option* o : app->get_options()) {
      if (o->nonpositional()) {
        for (const auto& n : o->get_snames()) opts.words.push_back("-" + n);
        for (const auto& n : o->get_lnames()) opts.words.push_back("--" + n);
        if (o->get_items_expected_max() == 0) continue;  // a flag
        const values v = values_of(o);
        for (const auto& n : o->get_lnames()) option_values += arm(path + "|--" + n, v);
        for (const auto& n : o->get_snames()) option_values += arm(path + "|-" + n, v);
      } else {
        const values v = values_of(o);
        args.words.insert(args.words.end(), v.words.begin(), v.words.end());
        args.files = std::max(args.files, v.files);
      }
    }
    for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
      steps += "      " + quoted(path + "|" + sub->get_name()) + ") cmd=" +
               quoted(path.empty() ? sub->get_name() : path + " " + sub->get_name()) + " ;;\n";
      if (!sub->get_group().empty()) args.words.push_back(sub->get_name());
    }
    options += arm(path, opts);
    arguments += arm(path, args);
  }
  out << R"(# bash completion for twinsched: its subcommands, each one's options, and the names an option
# takes (policies, idle strategies, stock scenarios and machines, ...). Made by
# `twinsched completion bash` from the command's own parser: make it again rather than edit it.
_twinsched() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" words="" files="" i
  (( COMP_CWORD > 1 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
  # bash splits --option=value at the '=' (COMP_WORDBREAKS)
  if [[ $cur == "=" ]]; then
    cur=""
  elif [[ $prev == "=" ]] && (( COMP_CWORD > 2 )); then
    prev=${COMP_WORDS[COMP_CWORD-2]}
  fi
  for (( i = 1; i < COMP_CWORD; i++ )); do
    case "$cmd|${COMP_WORDS[i]}" in
)" << steps << R"(    esac
  done
  case "$cmd|$prev" in
)" << option_values << R"(      *)
    if [[ $cur == -* ]]; then
      case "$cmd" in
)" << options << R"(      esac
    else
      case "$cmd" in
)" << arguments << R"(      esac
    fi ;;
  esac
  local IFS=$'\n'  # one reply a line: a file name may hold spaces
  COMPREPLY=($(compgen -W "${words// /$'\n'}" -- "$cur"))
  case $files in
    any) COMPREPLY+=($(compgen -f -- "$cur")) ;;
    toml) COMPREPLY+=($(compgen -d -- "$cur") $(compgen -f -X '!*.toml' -- "$cur")) ;;
  esac
  return 0
}
complete -o filenames -F _twinsched twinsched
)";
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
      print_bash(app, std::cout);
      return 0;
    };
  });
}

}  // namespace twinsched::cli
