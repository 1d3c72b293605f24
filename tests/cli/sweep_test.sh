#!/usr/bin/env bash
# `twinsched sweep`: a small grid runs with 2 jobs, rows land in CSV and JSON lines, --resume skips done cells, bad input fails in one line.
set -uo pipefail
bin=$(realpath "${1:?usage: sweep_test.sh PATH/TO/twinsched}")
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ts() { timeout 120 "$bin" "$@"; }

# 2 policies x 2 core counts x 2 seeds of a small forward run: 8 cells, each well under a second.
cat >"$tmp/grid.toml" <<TOML
scenario = "$src/scenarios/forward.toml"
[axes]
policy = ["stealing", "sharing"]
cores = [1, 2]
seed = [1, 2]
TOML
cd "$tmp" || exit 1
out=$(ts sweep grid.toml --param hops=200 --param tokens=20 --jobs 2 --report grid.html 2>err.txt); rc=$?
[[ $rc -eq 0 ]] || fail "sweep exited $rc: $out $(cat err.txt)"
[[ $out == *"sweep grid: 8 cells; ran 8 in"*"8 OK, 0 FAIL, 0 ERROR"* ]] || fail "summary: $out"
[[ $(wc -l <grid.csv) -eq 9 ]] || fail "grid.csv has $(wc -l <grid.csv) lines, expected a header and 8 rows"
[[ $(wc -l <grid.jsonl) -eq 8 ]] || fail "grid.jsonl has $(wc -l <grid.jsonl) lines, expected 8"
head -1 grid.csv | grep -q '^cell,backend,policy,cores,seed,verdict,makespan_s,msgs_per_s,messages,steals,donations,migrations,parks,event_hash,error,wall_s$' ||
  fail "CSV header: $(head -1 grid.csv)"
jq -e 'select(.verdict == "OK" and .messages > 0 and (.cores | type) == "number")' grid.jsonl >/dev/null || fail "JSON rows: $(head -1 grid.jsonl)"
grep -q '<svg' grid.html && grep -q 'Scaling per policy' grid.html && grep -q 'Heat map' grid.html || fail "the report lacks its charts"
# Under ASan every simulation child warns once that SimGrid's context switches leave the stack
# ASan knows (3 lines); that is the sanitizer speaking, not the sweep.
sed -i '/ASan is ignoring requested __asan_handle_no_return/,+2d' err.txt
[[ ! -s err.txt ]] || fail "a sweep that is not on a terminal and ends within 10 s prints no progress: $(cat err.txt)"

# Deterministic: the same grid at --jobs 1 gives the same rows (wall_s aside).
ts sweep grid.toml --param hops=200 --param tokens=20 --jobs 1 -o again >/dev/null 2>&1 || fail "the --jobs 1 run failed"
strip() { tail -n +2 "$1" | sed 's/,[^,]*$//' | sort -t, -k1,1n; }
diff <(strip grid.csv) <(strip again.csv) >/dev/null || fail "--jobs 1 and --jobs 2 rows differ: $(diff <(strip grid.csv) <(strip again.csv) | head -3)"

# --resume: nothing left to do runs nothing; after losing three rows (and tearing a line) it runs exactly those three.
out=$(ts sweep grid.toml --param hops=200 --param tokens=20 --resume 2>&1) || fail "resume of a finished sweep failed: $out"
[[ $out == *"8 cells already done"*"ran 0 in"* ]] || fail "resume of a finished sweep ran something: $out"
[[ $(wc -l <grid.jsonl) -eq 8 ]] || fail "resume of a finished sweep appended rows"
head -5 grid.jsonl >cut.jsonl && printf '{"cell": 7, "key": "backend=sim pol' >>cut.jsonl && mv cut.jsonl grid.jsonl
out=$(ts sweep grid.toml --param hops=200 --param tokens=20 --resume 2>&1) || fail "resume failed: $out"
[[ $out == *"5 cells already done"*"ran 3 in"*"8 OK"* ]] || fail "resume did not run exactly the 3 missing cells: $out"
[[ $(grep -o '"key":"[^"]*"' grid.jsonl | sort -u | wc -l) -eq 8 ]] || fail "after resume grid.jsonl does not hold all 8 cells"

# Existing results are not overwritten by accident; --dry-run lists the cells.
out=$(ts sweep grid.toml 2>&1); rc=$?
[[ $rc -eq 2 && $out =~ ^twinsched:\ grid\.jsonl:\ already\ exists ]] || fail "rerun without --resume: rc $rc: $out"
[[ $(ts sweep grid.toml --dry-run --axis cores=1,2,4 | grep -c 'backend=sim') -eq 12 ]] || fail "--dry-run --axis"

# Bad input: one line, exit 2, with file:line:col for the sweep file.
expect2() {
  local pattern=$1; shift
  local err rc
  err=$(ts "$@" 2>&1 >/dev/null); rc=$?
  [[ $rc -eq 2 && $err =~ $pattern && $(printf '%s\n' "$err" | wc -l) -eq 1 ]] ||
    fail "twinsched $* -> rc $rc, stderr: $err (expected exit 2 and /$pattern/)"
}
printf '[axes]\ncolour = [1, 2]\n' >bad_axis.toml
printf '[axes]\npolicy = ["stealing", "nope"]\n' >bad_value.toml
expect2 "^twinsched: bad_axis\\.toml:2:1: unknown axis 'colour'" sweep bad_axis.toml
expect2 "^twinsched: bad_value\\.toml:2:23: axes\\.policy: unknown policy 'nope'" sweep bad_value.toml
expect2 "^twinsched: --axis cores=0: " sweep grid.toml --axis cores=0 --dry-run
expect2 "^twinsched: --jobs takes a whole number" sweep grid.toml --jobs 0
expect2 "^twinsched: --slice takes K/T" sweep grid.toml --slice 3/2
expect2 "^twinsched: missing\\.toml: cannot open sweep file" sweep missing.toml

echo "sweep_test: $failures failure(s)"
[[ $failures -eq 0 ]]
