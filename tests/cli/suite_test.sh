#!/usr/bin/env bash
# `twinsched suite`: a folder of two small Savina benchmarks runs under every policy that applies on real cores and in
# simulation; the table (times, verdicts, the best per benchmark, donation n/a), --json's shape and the HTML page; a
# hung simulation is a FAIL in the table and exit code 1; an unknown suite, benchmark or bad flag is exit 2 before any
# cell runs.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "suite_test.sh PATH/TO/twinsched"
ts() { timeout 240 "$bin" "$@"; }
cd "$tmp" || exit 1

# The stock scenarios at a test's size: a suite may be any folder of scenario files.
mkdir tiny
sed 's/^pings = [0-9]*/pings = 200/' "$src/scenarios/savina/pingpong.toml" >tiny/pingpong.toml
sed 's/^messages = [0-9]*/messages = 2000/' "$src/scenarios/savina/count.toml" >tiny/count.toml
grep -q '^pings = 200 ' tiny/pingpong.toml && grep -q '^messages = 2000 ' tiny/count.toml || die "could not shrink the scenarios"

out=$(ts suite ./tiny --jobs 2 --report tiny.html 2>err.txt); rc=$?
[[ $rc -eq 0 ]] || fail "suite ./tiny exited $rc: $out $(cat err.txt)"
head -1 <<<"$out" | grep -Eq '^benchmark +policy +real 1w +real 2w +sim 1c +sim 2c +sim 16c +verdict$' || fail "table header: $out"
for b in count pingpong; do
  grep -Eq "^$b +shared-queue( +[0-9.]+ (us|ms|s)){5} +OK$" <<<"$out" || fail "no passing line for $b: $out"
done
for p in distribution sharing stealing adaptive; do
  [[ $(grep -Ec "^ +$p( +[0-9.]+ (us|ms|s)){5} +OK$" <<<"$out") -eq 2 ]] || fail "$p is not on two passing lines: $out"
done
! grep -Eq '^[a-z]* +donation ' <<<"$out" && [[ $out == *"n/a: donation cannot run on count, pingpong (e.g. donation needs a workload with a group"* ]] ||
  fail "donation is not left out for workloads without groups: $out"
grep -Eq '^  count +real: [a-z-]+ at [12]w, [0-9.]+ (us|ms|s)  sim: [a-z-]+ at (1|2|16)c, [0-9.]+ (us|ms|s)$' <<<"$out" ||
  fail "no best line for count: $out"
[[ $(cat err.txt) == *"suite ./tiny: 2 benchmarks, 50 cells (10 more cannot run: n/a in the table)"*"50 OK, 0 FAIL, 0 ERROR"* ]] ||
  fail "the suite's lines on stderr: $(cat err.txt)"
[[ $(grep -c '<svg' tiny.html) -eq 4 && $(grep -c '<h2>' tiny.html) -eq 2 ]] || fail "the page lacks a chart per benchmark and backend"
grep -q '<h2>count</h2>' tiny.html && grep -q 'simulated time (s)' tiny.html && grep -q 'wall time (s)' tiny.html ||
  fail "the page lacks its charts' titles"

# --json: the rows, the best per benchmark and the cells left out, nothing else on stdout.
ts suite ./tiny --backend sim --cores 2 --policies stealing,sharing,donation --json >rows.json 2>err.txt || fail "--json: $(cat err.txt)"
python3 - <<'PY' || fail "--json shape: $(head -c 600 rows.json)"
import json
j = json.load(open("rows.json"))
assert list(j) == ["suite", "folder", "rows", "best", "skipped"], list(j)
assert j["suite"] == "./tiny"
rows = j["rows"]
assert [(r["benchmark"], r["policy"]) for r in rows] == [(b, p) for b in ("count", "pingpong") for p in ("sharing", "stealing")], rows
for r in rows:
    assert list(r) == ["benchmark", "scenario", "backend", "policy", "workers", "cores", "time_s", "verdict", "messages",
                       "msgs_per_s", "error", "wall_s"], list(r)
    assert r["backend"] == "sim" and r["cores"] == 2 == r["workers"] and r["verdict"] == "OK" and r["time_s"] > 0, r
assert rows[0]["messages"] == 2000 + 3 and rows[2]["messages"] == 3 * 200 + 1, rows
assert [(b["benchmark"], b["backend"]) for b in j["best"]] == [("count", "sim"), ("pingpong", "sim")], j["best"]
assert all(b["policy"] in ("sharing", "stealing") and b["cores"] == 2 for b in j["best"]), j["best"]
assert [(s["benchmark"], s["policy"]) for s in j["skipped"]] == [("count", "donation"), ("pingpong", "donation")], j["skipped"]
PY

# Test sizes: --sizes reads the --param overrides of a .cases file; --quick those of the source tree's tests/savina/.
printf 'savina/count | stealing | --param messages=300\n' >sizes.cases
ts suite ./tiny --only count --backend sim --cores 1 --policies stealing --sizes sizes.cases --json >sized.json 2>err.txt ||
  fail "--sizes: $(cat err.txt)"
python3 -c 'import json; r = json.load(open("sized.json"))["rows"]; assert [x["messages"] for x in r] == [303], r' ||
  fail "--sizes did not set count's messages: $(head -c 300 sized.json)"
[[ $(cat err.txt) == *"1 cell; 1 at test sizes"* ]] || fail "--sizes is not said on stderr: $(cat err.txt)"
ts suite --quick --only count --backend sim --cores 1 --policies stealing --json >quick.json 2>err.txt || fail "--quick: $(cat err.txt)"
want=$(sed -n 's/^savina\/count .*--param messages=\([0-9]*\).*/\1/p' "$src"/tests/savina/*.cases)
python3 -c "import json, sys; r = json.load(open('quick.json'))['rows']; assert [x['messages'] for x in r] == [int(sys.argv[1]) + 3], r" "$want" ||
  fail "--quick did not use tests/savina's size for count ($want): $(head -c 300 quick.json)"

# A simulation that reaches the time limit is a hang: FAIL in the table, exit code 1.
out=$(ts suite ./tiny --only count --backend sim --cores 2 --policies stealing --time-limit 0.000001 2>err.txt); rc=$?
[[ $rc -eq 1 ]] || fail "a hung cell: exit $rc, expected 1: $out"
grep -Eq '^count +stealing +FAIL +FAIL: sim 2c$' <<<"$out" || fail "the table does not show the failed cell: $out"
[[ $out == *"  count  sim: none passed"* ]] || fail "best of a benchmark without a passing cell: $out"
[[ $(cat err.txt) == *"suite: backend=sim scenario=./tiny/count.toml policy=stealing cores=2: FAIL: "*"simulated time limit"*"0 OK, 1 FAIL"* ]] ||
  fail "the failed cell is not named on stderr: $(cat err.txt)"

# Bad input: one line, exit 2, before any cell runs (nothing on stdout, no suite line on stderr).
expect2() {
  local pattern=$1; shift
  local err rc
  err=$(ts "$@" 2>&1 >out.txt); rc=$?
  [[ $rc -eq 2 && $err =~ $pattern && $(printf '%s\n' "$err" | wc -l) -eq 1 && ! -s out.txt ]] ||
    fail "twinsched $* -> rc $rc, stderr: $err (expected exit 2 and /$pattern/)"
}
expect2 "^twinsched: --only: no benchmark nope, other in suite \\./tiny; known: count, pingpong$" suite ./tiny --only nope,count,other
expect2 "^twinsched: --only: no benchmark nope in suite savina; known: .*count.*pingpong" suite --only nope
expect2 "^twinsched: nosuch: no such suite: no folder .*/scenarios/nosuch \\(suites: savina" suite nosuch
expect2 "^twinsched: missing/: not a folder of scenario files" suite missing/
expect2 "^twinsched: --policies: unknown policy 'fifo'; valid: " suite ./tiny --policies stealing,fifo
expect2 "^twinsched: --workers takes a list of whole numbers from 1 to 1024, not '0,2'" suite ./tiny --workers 0,2
expect2 "^twinsched: --backend takes real, sim or both, not 'gpu'" suite ./tiny --backend gpu
expect2 "^twinsched: --policies: no cell can run: donation needs" suite ./tiny --policies donation
expect2 "^twinsched: --report nofolder/r\\.html: folder nofolder does not exist" suite ./tiny --report nofolder/r.html
printf 'count | stealing | --param nope=1\n' >bad.cases
expect2 "^twinsched: bad\\.cases:1:19: count: unknown parameter 'nope'" suite ./tiny --sizes bad.cases
expect2 "^twinsched: --quick: no test sizes for suite \\./tiny" suite ./tiny --quick

finish "suite"
