#!/usr/bin/env bash
# The installed package: `cmake --install` of a built tree into a fresh prefix, then an out-of-tree
# project (tests/install/consumer) found through find_package(twinsched), built, and run, and a user's
# program on twinsched::cli (examples/own_command.cpp) driven through every subcommand; the
# installed command, moved to another prefix, run from a bare folder: it reads the stock scenarios
# and machines of its own share/twinsched (never the source tree), runs README.md's command
# block, and comes with a man page and a bash completion that name every subcommand.
source "$(dirname "$0")/../cli/lib.sh"
set -e
build=${1:?usage: install_test.sh BUILD_DIR}
here=$src/tests/install
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/twinsched libexec/twinsched-full include/twinsched/runtime/run_threads.hpp include/twinsched/sim/run_sim.hpp \
         include/twinsched/models/platform.hpp lib/cmake/twinsched/twinschedConfig.cmake; do
  [[ -e $tmp/prefix/$f ]] || die "the install lacks $f"
done
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# A sanitizer build's libraries need the consumer built with the same sanitizer.
flags=()
case $(sed -n 's/^TWINSCHED_SANITIZE:STRING=//p' "$build/CMakeCache.txt") in
  address) flags=(-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined) ;;
  thread) flags=(-DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread) ;;
esac
cmake -S "$here/consumer" -B "$tmp/consumer" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_BUILD_TYPE=Release -DOWN_COMMAND_SOURCE="$src/examples/own_command.cpp" "${flags[@]}" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
# The consumer must not have reached into the source tree: its include paths are the prefix's.
if grep -rq -- "-I$src" "$tmp/consumer" 2>/dev/null; then
  die "the consumer compiled against the source tree, not the install"
fi
timeout 120 "$tmp/consumer/consumer"
# A user's program with the whole command line, built against the package (twinsched::cli): every
# subcommand on its own workload.
timeout 300 bash "$src/tests/cli/own_command_test.sh" "$tmp/consumer/own_command" >"$tmp/own_command.txt" 2>&1 ||
  die "examples/own_command.cpp built against the install: $(grep FAIL "$tmp/own_command.txt" | head -3)"
"$tmp/prefix/bin/twinsched" --version >/dev/null

# The command, moved with its prefix, from a folder that holds nothing: what it reads must come
# from the moved prefix. The build-tree command reads the source tree, so the installed one
# proves it does not by losing a stock file the source tree has, and by finding one only the
# prefix has.
mv "$tmp/prefix" "$tmp/moved"
prefix=$tmp/moved share=$tmp/moved/share/twinsched
tw=$prefix/bin/twinsched
mkdir "$tmp/work"
run() { (cd "$tmp/work" && timeout 300 "$tw" "$@" </dev/null); }
for f in scenarios/pingpong.toml scenarios/forward.toml scenarios/sweeps/scaling.toml machines/xeon-2s-32c.toml \
         machines/default.toml; do
  [[ -f $share/$f ]] || die "the install lacks share/twinsched/$f"
done
[[ $(run list scenarios | head -1) == "stock scenarios in $share/scenarios "* ]] ||
  die "list scenarios does not name the installed folder: $(run list scenarios | head -1)"
[[ $(run list machines | head -1) == "stock machines in $share/machines "* ]] ||
  die "list machines does not name the installed folder: $(run list machines | head -1)"
run run forward --param hops=100 >/dev/null || die "run forward"
run run pingpong --param bounces=100 >/dev/null || die "run pingpong"
run sim forward --machine default --param hops=100 >/dev/null || die "sim forward --machine default"
run sim "$share/scenarios/pi.toml" --machine "$share/machines/xeon-2s-32c.toml" --cores 2 --param jobs=20 >/dev/null ||
  die "sim with a path to an installed scenario and machine"
run sweep "$share/scenarios/sweeps/scaling.toml" --dry-run >/dev/null || die "sweep --dry-run of the installed scaling.toml"
sed 's/^name = .*/name = "installed-only"/' "$share/machines/xeon-2s-32c.toml" >"$share/machines/installed-only.toml"
cp "$share/scenarios/pingpong.toml" "$share/scenarios/installed-only.toml"
[[ $(run list machines) == *installed-only* ]] || die "list machines lacks a machine only the prefix has"
run sim installed-only --machine installed-only --cores 4 --param bounces=100 >/dev/null ||
  die "sim of a scenario on a machine only the prefix has"
rm "$share/scenarios/skewed.toml" "$share/machines/this-machine.toml"
out=$(run run skewed 2>&1) && die "run skewed ran without the installed skewed.toml: it read another folder"
[[ $out == *"no $share/scenarios/skewed.toml"* ]] || die "run skewed, missing from the prefix: $out"
out=$(run sim --machine this-machine 2>&1) && die "sim --machine this-machine ran without the installed file"
[[ $out == *"no $share/machines/this-machine.toml"* ]] || die "sim --machine this-machine, missing from the prefix: $out"
cp "$src/scenarios/skewed.toml" "$share/scenarios/"

# README.md's command block, in order, as the README test runs it with the build's command (a
# path like scenarios/pi.toml there means the installed folder; a name needs nothing).
readme=$src/README.md
mapfile -t lines < <(awk '/^<!-- commands: run in this order/{f=1; next} f && /^```/{if (inb) exit; inb=1; next} inb' "$readme")
[[ ${#lines[@]} -ge 4 ]] || die "README.md has no block of commands to run"
mkdir -p "$tmp/readme/bin"
ln -s "$share/scenarios" "$tmp/readme/scenarios"
ln -s "$tw" "$tmp/readme/bin/twinsched"
for line in "${lines[@]}"; do
  cmd=${line%%#*}
  [[ $cmd == *[![:space:]]* ]] || continue
  (cd "$tmp/readme" && PATH=$tmp/readme/bin:$PATH timeout 300 bash -c "$cmd" </dev/null >out.txt 2>&1) ||
    die "README command '$cmd' with the installed twinsched: $(tail -3 "$tmp/readme/out.txt")"
done

# The man page (help2man over the command's own help) holds every subcommand's help; the bash
# completion completes every subcommand `twinsched --help` lists, options and names.
mapfile -t commands < <(run --help | awk 'tolower($0) ~ /^subcommands:/ {f = 1; next} f && /^  [a-z]/ {print $1} f && /^[^ ]/ {f = 0}')
[[ ${#commands[@]} -ge 10 ]] || die "twinsched --help lists only ${#commands[@]} subcommands"
help2man_used=$(sed -n 's/^TWINSCHED_HELP2MAN:FILEPATH=//p' "$build/CMakeCache.txt")
if [[ -n $help2man_used && $help2man_used != *NOTFOUND ]]; then
  page=$prefix/share/man/man1/twinsched.1
  [[ -f $page ]] || die "the install lacks share/man/man1/twinsched.1"
  grep -q '^\.TH TWINSCHED "1"' "$page" || die "share/man/man1/twinsched.1 is not a section-1 man page"
  for c in "${commands[@]}"; do
    grep -q "^\.SS \"twinsched $c\"" "$page" || die "the man page has no section for twinsched $c"
  done
  grep -q -- '--check-determinism' "$page" || die "the man page lacks sim's options"
else
  echo "install_test: no man page to check: help2man was not found when $build was configured"
fi
completion=$prefix/share/bash-completion/completions/twinsched
[[ -f $completion ]] || die "the install lacks share/bash-completion/completions/twinsched"
# complete WORDS...: what the completion offers for the last word, one a line
complete_words() {
  (cd "$tmp/work" && PATH=$prefix/bin:$PATH bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
    _twinsched; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" twinsched "$@")
}
offered=$(complete_words "")
for c in "${commands[@]}"; do
  grep -qx "$c" <<<"$offered" || die "the completion does not offer the subcommand $c (offers: $offered)"
done
grep -qx info <<<"$(complete_words trace "")" || die "the completion does not offer trace info"
grep -qx -- --policy <<<"$(complete_words run --pol)" || die "the completion does not offer run --policy"
grep -qx stealing <<<"$(complete_words run --policy "")" || die "the completion does not offer run --policy stealing"
grep -qx park <<<"$(complete_words sim --idle p)" || die "the completion does not offer sim --idle park"
grep -qx xeon-2s-32c <<<"$(complete_words sim --machine "")" || die "the completion does not offer stock machine names"
grep -qx pingpong <<<"$(complete_words run "")" || die "the completion does not offer stock scenario names"
grep -qx machines <<<"$(complete_words list m)" || die "the completion does not offer list machines"
echo "install_test: OK"
