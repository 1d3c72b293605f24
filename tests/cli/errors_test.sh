#!/usr/bin/env bash
# The twinsched CLI's exit codes and error lines for inputs that fail before anything runs.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "errors_test.sh PATH/TO/twinsched"

# expect CODE REGEX ARGS...: runs twinsched ARGS in $tmp, checks the exit code and that
# stderr matches REGEX (skipped when REGEX is empty).
expect() {
  local code=$1 pattern=$2; shift 2
  local err rc
  err=$(cd "$tmp" && "$bin" "$@" 2>&1 >/dev/null); rc=$?
  if [[ $rc -ne $code ]]; then
    fail "twinsched $* exited $rc, expected $code; stderr: $err"; return
  fi
  if [[ -n $pattern && ! $err =~ $pattern ]]; then
    fail "twinsched $* stderr does not match /$pattern/: $err"; return
  fi
  if [[ -n $pattern && $(printf '%s\n' "$err" | wc -l) -ne 1 ]]; then
    fail "twinsched $* printed more than one error line: $err"; return
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
expect 2 "^twinsched: --policy: no-such-policy not in \\{.*\\} \\(see \`twinsched run --help\`\\)$" run --policy no-such-policy
# Trace levels: one parser (models/config.hpp) for the scenario's `trace` key and every command's flag.
expect 2 "^twinsched: --trace-level: unknown trace level 'all' \\(known: off, decisions, full\\)\$" run --trace-level all
expect 2 "^twinsched: --trace-level: this command records a trace to use: decisions or full, not 'off'\$" validate --trace-level off
expect 2 "^twinsched: --level: unknown trace level 'Full' \\(known: off, decisions, full\\)\$" replay x.tst --level Full

# Every numeric option rejects a bad value before anything runs: one line, exit 2,
# "--NAME takes WHAT, not 'VALUE'" (whole numbers name their range).
whole() { printf "^twinsched: %s takes a whole number from %s to %s, not '%s'\$" "$@"; }
u32=4294967295 u64=18446744073709551615
expect 2 "$(whole --workers 1 1024 0)" run --workers 0
expect 2 "$(whole --workers 1 1024 1025)" run --workers 1025
expect 2 "$(whole --workers 1 1024 two)" sim --workers two
expect 2 "$(whole --workers 1 1024 -1)" validate --workers -1
expect 2 "$(whole --burst 1 $u32 0)" run --burst 0
expect 2 "$(whole --burst 1 $u32 4294967296)" sim --burst 4294967296
expect 2 "$(whole --seed 0 $u64 -1)" run --seed -1
expect 2 "$(whole --seed 0 $u64 18446744073709551616)" run --seed 18446744073709551616
expect 2 "$(whole --seed 0 $u64 1.5)" sim --seed 1.5
expect 2 "^twinsched: --cores takes N or a comma-separated list of N, each 1\\.\\.256, not '5000'\$" sim --cores 5000
expect 2 "^twinsched: --cores takes N or a comma-separated list of N, each 1\\.\\.256, not '1,,2'\$" sim --cores 1,,2
expect 2 "^twinsched: --cores takes N or a comma-separated list of N, each 1\\.\\.256, not '2,'\$" sim --cores 2,
expect 2 "^twinsched: --quantum-ns takes a number of simulated ns, 0 or more, not '-1'\$" sim --quantum-ns -1
expect 2 "^twinsched: --time-limit takes a number of simulated seconds above 0, not '0'\$" sim --time-limit 0
expect 2 "^twinsched: --time-limit takes a number of simulated seconds above 0, not 'inf'\$" sim --time-limit inf
expect 2 "$(whole --cores 1 256 0)" replay x.tst --cores 0
expect 2 "$(whole --context 0 $u64 -1)" diff a.tst b.tst --context -1
expect 2 "^twinsched: --tolerance takes a percentage such as 10% or a fraction such as 0\\.1, not 'lots'\$" diff a.tst b.tst --tolerance lots
expect 2 "^twinsched: --tolerance takes a percentage such as 10% or a fraction such as 0\\.1, not '-5%'\$" validate --tolerance -5%
expect 2 "$(whole --from 0 $u64 -5)" export perfetto a.tst -o a.json --from -5
expect 2 "$(whole --to 0 $u64 1ms)" export perfetto a.tst -o a.json --to 1ms
expect 2 "^twinsched: --to 3 is before --from 5\$" export perfetto a.tst -o a.json --from 5 --to 3
expect 2 "$(whole --max-flows 0 $u64 many)" export perfetto a.tst -o a.json --max-flows many
expect 2 "^twinsched: --until: time '5parsecs': unknown unit 'parsecs' " trace step a.tst --until 5parsecs
expect 2 "^twinsched: --until: time 'soon': expected a number of ns" replay a.tst --until soon
expect 2 "^twinsched: what: nothing not in \\{.*\\} \\(see \`twinsched list --help\`\\)$" list nothing
expect 2 '^twinsched: .* \(see `twinsched --help`\)$' frobnicate
expect 0 '' list policies
expect 0 '' list idle
expect 0 '' list workloads
expect 0 '' list scenarios
expect 0 '' --help
expect 0 '' run --help
expect 0 '' --version

# Mistakes that used to be ignored, found late or named wrong: one line each, before anything runs.
printf '[workload]\nkind = "skewed"\nhot_percent = 150\n' >"$tmp/hot.toml"
printf '[workload]\nkind = "forward"\n[scheduler.idle]\nmin_park_us = 50\nmax_park_us = 10\n' >"$tmp/parks.toml"
printf '[workload]\nkind = "forward"\ntokens = 9223372036854775807\n' >"$tmp/huge.toml"
expect 2 '^twinsched: hot\.toml:3:15: workload\.hot_percent must be at most 100, got 150$' run hot.toml
printf '[workload]\nkind = "skewed"\n' >"$tmp/skewed.toml"
expect 2 '^twinsched: --param hot_percent=101: workload\.hot_percent must be at most 100, got 101$' run skewed.toml --param hot_percent=101
expect 2 '^twinsched: parks\.toml:5:15: scheduler\.idle\.max_park_us \(10\) must be at least min_park_us \(50\)$' run parks.toml
huge='this run needs an estimated 512 EiB of memory \(9\.22e\+18 queued messages x 64 B, 1000 actors x 192 B, .*\), more than the machine.s [0-9.]+ [KMGTP]iB$'
expect 2 "^twinsched: huge\.toml: $huge" run huge.toml
expect 2 "^twinsched: $huge" sim huge.toml
expect 2 "^twinsched: <embedded scenarios/forward\\.toml>: $huge" run --param tokens=9223372036854775807
expect 2 '^twinsched: command line: --p perturbs a schedule, and none is asked for: add --schedule SEED \(it is random.s probability\)$' sim --p 0.5
expect 2 '^twinsched: command line: --p does not apply to --strategy pct ' sim --schedule 1 --strategy pct --p 0.5
expect 2 '^twinsched: command line: --depth does not apply to --strategy random ' sim --schedule 1 --depth 3
expect 2 '^twinsched: command line: --delay perturbs a schedule, and none is asked for' sim --delay 10..20
expect 2 "^twinsched: 'rn' is not a command; did you mean \`twinsched run\`\\? \\(see \`twinsched --help\`\\)\$" rn
expect 2 "^twinsched: 'hlep' is not a command; did you mean \`twinsched help\`" hlep
expect 2 "^twinsched: 'rn' is not a command; did you mean \`twinsched run\`" help rn
expect 0 '' help
expect 0 '' help sim
for words in "help" "help sim"; do  # the help itself, on stdout
  out=$(cd "$tmp" && "$bin" $words)
  want="Usage: twinsched${words#help}"
  if [[ $out != *"$want [OPTIONS]"* ]]; then fail "twinsched $words does not print $want's help: $out"; fi
done

# A tiny run through the real runtime: exit 0, one JSON object with a passing verdict.
json=$(cd "$tmp" && "$bin" run --param tokens=4 --param hops=100 --json); rc=$?
if [[ $rc -ne 0 || $json != "{"*"}" || $json != *'"ok": true'* ]]; then
  fail "small run exited $rc or printed no passing JSON object: $json"
else
  echo "ok: twinsched run --param tokens=4 --param hops=100 --json"
fi

# `list scenarios` from any folder lists the stock scenarios (for the build's command, the source tree's).
out=$(cd "$tmp" && "$bin" list scenarios)
if [[ $out != *forward.toml* ]]; then fail "list scenarios does not show forward.toml: $out"; fi

finish "errors"
