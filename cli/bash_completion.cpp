// The bash completion script from a description of the command tree: one case arm per command,
// option value and argument list, inside a fixed function that walks the words typed so far.
#include "cli/bash_completion.hpp"

namespace twinsched::cli {
namespace {

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
std::string arm(const std::string& pattern, const completion_values& v) {
  std::string s = "      " + quoted(pattern) + ")";
  if (!v.words.empty()) s += " words=" + quoted(joined(v.words));
  if (v.files != completion_values::none) s += v.files == completion_values::toml_file ? " files=toml" : " files=any";
  return s + " ;;\n";
}

}  // namespace

void write_bash_completion(std::ostream& out, const std::vector<completion_command>& commands) {
  std::string steps, option_values, options, arguments;
  for (const auto& c : commands) {
    for (const auto& sub : c.subcommands)
      steps += "      " + quoted(c.path + "|" + sub) + ") cmd=" + quoted(c.path.empty() ? sub : c.path + " " + sub) +
               " ;;\n";
    for (const auto& [name, v] : c.option_values) option_values += arm(c.path + "|" + name, v);
    options += arm(c.path, completion_values{c.options});
    arguments += arm(c.path, c.arguments);
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

}  // namespace twinsched::cli
