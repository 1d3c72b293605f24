#!/usr/bin/env bash
# Made at build time from the command's own help and parser, so that neither can drift from it:
#   cli_docs.sh completion TWINSCHED OUT           the bash completion script
#   cli_docs.sh man TWINSCHED OUT HELP2MAN         the man page: help2man over `twinsched --help`,
#                                                  with every subcommand's --help in COMMANDS
set -euo pipefail
what=$1 exe=$2 out=$3
mkdir -p "$(dirname "$out")"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
case $what in
  completion)
    "$exe" completion bash >"$tmp"
    ;;
  man)
    help2man=$4
    # The names under Subcommands: in `twinsched [COMMAND...] --help`.
    subcommands() { "$exe" "$@" --help | awk 'tolower($0) ~ /^subcommands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^[^ ]/ { f = 0 }'; }
    # One command's help as it prints, in roff: a backslash is \e, a line starting with . or ' is not a request.
    section() {
      printf '.SS "twinsched %s"\n.nf\n' "$*"
      "$exe" "$@" --help | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
      printf '.fi\n'
      local sub
      for sub in $(subcommands "$@"); do section "$@" "$sub"; done
    }
    {
      printf '[COMMANDS]\nEach command'"'"'s own help, as \\fBtwinsched\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR prints it.\n'
      for sub in $(subcommands); do section "$sub"; done
    } >"$tmp.include"
    trap 'rm -f "$tmp" "$tmp.include"' EXIT
    "$help2man" --no-info --section=1 --include="$tmp.include" --output="$tmp" \
      --name="actor scheduling policies written once, run on real cores and on a simulated multicore machine" "$exe"
    ;;
  *) echo "cli_docs.sh: unknown output '$what'" >&2; exit 2 ;;
esac
chmod 644 "$tmp"
mv "$tmp" "$out"
