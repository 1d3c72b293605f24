#!/usr/bin/env bash
# The twinsched CLI's exit codes and error lines for inputs that fail before anything runs.
set -uo pipefail
bin=${1:?usage: cli_test.sh PATH/TO/twinsched}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect CODE REGEX ARGS...: runs twinsched ARGS in $tmp, checks the exit code and that
# stderr matches REGEX (skipped when REGEX is empty).
expect() {
  local code=$1 pattern=$2; shift 2
  local err rc
  err=$(cd "$tmp" && "$bin" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne $code ]]; then
    echo "FAIL: twinsched $* exited $rc, expected $code; stderr: $err"; failures=$((failures + 1)); return
  fi
  if [[ -n $pattern && ! $err =~ $pattern ]]; then
    echo "FAIL: twinsched $* stderr does not match /$pattern/: $err"; failures=$((failures + 1)); return
  fi
  if [[ -n $pattern && $(printf '%s\n' "$err" | wc -l) -ne 1 ]]; then
    echo "FAIL: twinsched $* printed more than one error line: $err"; failures=$((failures + 1)); return
  fi
  echo "ok: twinsched $*"
}

printf 'name = "bad"\n[workload]\nkind = "forward"\n[scheduler]\nworkers = "two"\n' >"$tmp/bad_type.toml"
printf 'name = "bad"\n[workload]\nkind = "forward"\n[scheduler]\npolicy = "nope"\n' >"$tmp/bad_policy.toml"
printf 'name = "unterminated\n' >"$tmp/bad_syntax.toml"
printf '[workload]\nkind = "forward"\nactors = 0\n' >"$tmp/bad_count.toml"

expect 2 '^twinsched: bad_type\.toml:5:11: scheduler\.workers: expected integer, got string$' run bad_type.toml
expect 2 "^twinsched: bad_policy\\.toml:5:10: unknown policy 'nope'; valid: " run bad_policy.toml
expect 2 '^twinsched: bad_syntax\.toml:1:[0-9]+: ' run bad_syntax.toml
expect 2 '^twinsched: bad_count\.toml:3:10: workload\.actors must be at least 1, got 0$' run bad_count.toml --json
expect 2 '^twinsched: missing\.toml: cannot open scenario file \(No such file or directory\)$' run missing.toml
expect 2 "^twinsched: --param hops=x: workload\\.hops: expected integer, got string$" run --param hops=x
expect 2 "^twinsched: --param nope=1: unknown parameter 'nope'" run --param nope=1
expect 2 '' run --policy no-such-policy
expect 2 '' run --workers 0
expect 2 '' list nothing
expect 2 '' frobnicate
expect 0 '' list policies
expect 0 '' list idle
expect 0 '' list workloads
expect 0 '' list scenarios
expect 0 '' --help
expect 0 '' run --help
expect 0 '' --version

# A tiny run through the real runtime: exit 0, one JSON object with a passing verdict.
json=$(cd "$tmp" && "$bin" run --param tokens=4 --param hops=100 --json); rc=$?
if [[ $rc -ne 0 || $json != "{"*"}" || $json != *'"ok": true'* ]]; then
  echo "FAIL: small run exited $rc or printed no passing JSON object: $json"; failures=$((failures + 1))
else
  echo "ok: twinsched run --param tokens=4 --param hops=100 --json"
fi

# `list scenarios` outside the source tree falls back to the source tree's scenarios/.
out=$(cd "$tmp" && "$bin" list scenarios)
if [[ $out != *forward.toml* ]]; then echo "FAIL: list scenarios does not show forward.toml: $out"; failures=$((failures + 1)); fi

[[ $failures -eq 0 ]] && echo "all CLI checks passed" || echo "$failures CLI check(s) failed"
exit $((failures > 0))
