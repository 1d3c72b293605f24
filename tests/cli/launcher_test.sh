#!/usr/bin/env bash
# `twinsched` serves `run` without loading the simulator's libraries and hands every other command
# to twinsched-full: the same help, answers and exit codes as the whole command line, and a clear
# exit 2 where twinsched-full cannot be found (while `run` still works).
# usage: launcher_test.sh TWINSCHED
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "launcher_test.sh TWINSCHED"
full=$(dirname "$bin")/twinsched-full
[[ -x $full ]] || die "no twinsched-full beside $bin"

# Which shared objects a command loads, from the dynamic loader's own log (glibc's LD_DEBUG).
loads() { LD_DEBUG=files LD_DEBUG_OUTPUT="$tmp/ld" "$@" >/dev/null 2>&1; cat "$tmp"/ld.* ; rm -f "$tmp"/ld.*; }
libs=$(loads "$bin" run --param hops=100)
[[ $libs == *"file=libtomlplusplus"* ]] || die "the loader's log names no library: LD_DEBUG does not work here"
if [[ $libs == *libsimgrid* ]]; then fail "twinsched run loaded SimGrid"; else ok "run loads no simulator library"; fi
libs=$(loads "$bin" sim --param hops=100 --cores 2)
if [[ $libs == *libsimgrid* ]]; then ok "sim reaches twinsched-full, which loads SimGrid"; else fail "sim loaded no SimGrid"; fi

out=$("$bin" run --param hops=100) && [[ $out == *"verdict       OK"* ]] && ok "run's verdict" || fail "run: $out"
out=$("$bin" sim --param hops=100 --cores 2) && [[ $out == *"verdict       OK"* ]] && ok "sim's verdict" || fail "sim: $out"
for args in "--help" "run --help" "sim --help" "--version" "list policies" "help run"; do
  # shellcheck disable=SC2086
  if [[ $("$bin" $args 2>&1) == "$("$full" $args 2>&1)" ]]; then ok "twinsched $args prints what twinsched-full does"
  else fail "twinsched $args differs from twinsched-full"; fi
done
for args in "run --workers 0" "run --bogus" "sim --cores 0" "frobnicate" "run no-such-scenario"; do
  # shellcheck disable=SC2086
  "$bin" $args >/dev/null 2>"$tmp/err"; rc=$?
  [[ $rc == 2 && $(wc -l <"$tmp/err") == 1 ]] && ok "twinsched $args: exit 2, one line" ||
    fail "twinsched $args: exit $rc, $(cat "$tmp/err")"
done

# Alone in a folder: run works, every other command says what is missing.
mkdir "$tmp/alone" && cp "$bin" "$tmp/alone/twinsched"
out=$("$tmp/alone/twinsched" run --param hops=100) && [[ $out == *"verdict       OK"* ]] &&
  ok "run without twinsched-full" || fail "run without twinsched-full: $out"
"$tmp/alone/twinsched" sim >/dev/null 2>"$tmp/err"; rc=$?
[[ $rc == 2 && $(cat "$tmp/err") == *"cannot start the full command"*"$tmp/alone/twinsched-full"* ]] &&
  ok "sim without twinsched-full: exit 2 naming where it looked" || fail "sim without twinsched-full: exit $rc, $(cat "$tmp/err")"
finish launcher
