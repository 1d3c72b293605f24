#!/usr/bin/env bash
# `twinsched sweep`: a small grid runs with 2 jobs, rows land in CSV and JSON lines with the complete scenario each
# cell ran, --param overrides a fixed value and is refused for an axis, --resume skips done cells, drops a torn row and
# refuses another grid or --param, a scenario axis runs one grid over several scenarios, and bad input (a missing
# output folder included) fails in one line before any work.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "sweep_test.sh PATH/TO/twinsched"
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
head -1 grid.csv | grep -q '^cell,backend,policy,cores,seed,machine,name,scheduler\.burst,.*,scheduler\.idle\.strategy,.*,workload\.hops,workload\.kind,workload\.tokens,sim\.cores,sim\.interleave,sim\.quantum_ns,sim\.time_limit_s,verdict,makespan_s,msgs_per_s,messages,steals,donations,migrations,parks,event_hash,error,wall_s$' ||
  fail "CSV header: $(head -1 grid.csv)"
# Every row records the complete scenario its cell ran: the --param values, the axis values and every other setting.
python3 - <<'PY' || fail "rows lack their effective scenario: $(head -1 grid.jsonl)"
import csv, json
rows = [json.loads(line) for line in open("grid.jsonl")]
assert len(rows) == 8
for r in rows:
    s = r["scenario"]
    assert r["verdict"] == "OK" and isinstance(r["cores"], int), r
    assert s["workload"] == {"actors": 1000, "cost_ns": 0, "hops": 200, "kind": "forward", "tokens": 20}, s["workload"]
    assert (s["scheduler"]["policy"], s["sim"]["cores"], s["seed"]) == (r["policy"], r["cores"], r["seed"]), s
    assert s["scheduler"]["workers"] == r["cores"] and s["scheduler"]["idle"]["strategy"] == "backoff", s
    assert s["machine"] == "default" and s["sim"]["time_limit_s"] == 3600, s
    assert r["messages"] == 20 * 201, r["messages"]
for r in csv.DictReader(open("grid.csv")):
    assert (r["workload.hops"], r["workload.tokens"], r["scheduler.policy"], r["sim.cores"]) == ("200", "20", r["policy"], r["cores"]), r
PY
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

# --resume with another --param or another grid would mix two sweeps in one file: refused, naming the difference.
before=$(cksum grid.csv grid.jsonl grid.sweep.json)
err=$(ts sweep grid.toml --param hops=300 --param tokens=20 --resume 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == "twinsched: grid.sweep.json: the results beside it are another sweep's (workload.hops was 200, is 300)"* ]] ||
  fail "resume with another --param: rc $rc: $err"
err=$(ts sweep grid.toml --param hops=200 --param tokens=20 --axis cores=1,2,4 --resume 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"(axis cores was 1,2, is 1,2,4)"* ]] || fail "resume with a changed grid: rc $rc: $err"
[[ $(cksum grid.csv grid.jsonl grid.sweep.json) == "$before" ]] || fail "a refused resume changed the result files"

# A row torn by an interruption (in both files) is dropped and its cell runs again; every line is whole after.
head -5 grid.jsonl >cut.jsonl && printf '{"cell": 7, "key": "backend=sim pol' >>cut.jsonl && mv cut.jsonl grid.jsonl
printf '7,sim,sharing,2,2,def' >>grid.csv
out=$(ts sweep grid.toml --param hops=200 --param tokens=20 --resume 2>&1) || fail "resume failed: $out"
[[ $out == *"was cut short: dropped"*"5 cells already done"*"ran 3 in"*"8 OK"* ]] || fail "resume did not run exactly the 3 missing cells: $out"
[[ $(grep -o '"key":"[^"]*"' grid.jsonl | sort -u | wc -l) -eq 8 ]] || fail "after resume grid.jsonl does not hold all 8 cells"
python3 -c 'import json, sys; [json.loads(l) for l in open("grid.jsonl")]' || fail "a line of grid.jsonl is not JSON after resume"
[[ $(wc -l <grid.jsonl) -eq 8 && $(wc -l <grid.csv) -eq 9 && $(tail -c 1 grid.csv | od -An -c) == *'\n'* ]] ||
  fail "after resume: $(wc -l <grid.jsonl) JSON lines and $(wc -l <grid.csv) CSV lines, expected 8 and a header and 8"
diff <(strip grid.csv) <(strip again.csv) >/dev/null || fail "the resumed rows differ from a whole run's"

# --param overrides a value the sweep file fixes (the README's example: tokens 50 in the file) and is refused for an axis.
out=$(ts sweep "$src/scenarios/sweeps/scaling.toml" --axis cores=1,2,4 --param tokens=10 --dry-run)
[[ $(grep -c 'backend=sim .*workload\.tokens=10$' <<<"$out") -eq 150 && $out != *tokens=50* ]] ||
  fail "--dry-run of the README's --param example: $(head -2 <<<"$out")"
cat >fixed.toml <<TOML
scenario = "$src/scenarios/forward.toml"
[axes]
cores = [1, 2]
workload.hops = 100
workload.tokens = 50
TOML
out=$(ts sweep fixed.toml --param tokens=5 2>&1) || fail "sweep --param over a fixed value failed: $out"
python3 - <<'PY' || fail "rows of --param tokens=5 over the file's 50: $(head -1 fixed.jsonl)"
import csv, json
rows = [json.loads(line) for line in open("fixed.jsonl")]
assert len(rows) == 2
for r in rows:
    assert r["workload.tokens"] == 5 and r["scenario"]["workload"]["tokens"] == 5 and r["messages"] == 5 * 101, r
    assert r["key"].endswith("workload.tokens=5"), r["key"]
assert [r["workload.tokens"] for r in csv.DictReader(open("fixed.csv"))] == ["5", "5"]
PY

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
printf '[axes]\nworkload.hops = [100, 200]\n' >axis.toml
expect2 "^twinsched: bad_axis\\.toml:2:1: unknown axis 'colour'" sweep bad_axis.toml
expect2 "^twinsched: bad_value\\.toml:2:23: axes\\.policy: unknown policy 'nope'" sweep bad_value.toml
expect2 "^twinsched: --axis cores=0: " sweep grid.toml --axis cores=0 --dry-run
expect2 "^twinsched: --jobs takes a whole number" sweep grid.toml --jobs 0
expect2 "^twinsched: --slice takes K/T" sweep grid.toml --slice 3/2
expect2 "^twinsched: missing\\.toml: cannot open sweep file" sweep missing.toml
expect2 "^twinsched: --param hops=5: workload\\.hops is an axis of this sweep \\(100, 200 at axis\\.toml:2\\)" \
  sweep axis.toml --param hops=5 --dry-run
expect2 "^twinsched: --param tokens=5: --axis workload\\.tokens sets it too" sweep fixed.toml --axis workload.tokens=1,2 --param tokens=5

# A scenario axis: one grid over several scenarios (paths beside the sweep file, a stock name); rows carry the axis
# value and each cell's own scenario; --param must fit every scenario; a scenario changed since is refused on --resume.
mkdir -p multi
sed 's/^hops = .*/hops = 100/; s/^tokens = .*/tokens = 10/' "$src/scenarios/forward.toml" >multi/fwd.toml
sed 's/^bounces = .*/bounces = 300/' "$src/scenarios/pingpong.toml" >multi/pp.toml
cat >multi/multi.toml <<TOML
backend = "both"
skip_impossible = true
[axes]
scenario = ["fwd.toml", "pp.toml", "pool"]
policy = ["stealing", "donation"]
workers = 2
TOML
out=$(ts sweep multi/multi.toml --dry-run 2>&1) || fail "dry run of a scenario axis: $out"
[[ $out == *"4 cells cannot run, left out (skip_impossible), e.g. backend=sim scenario=fwd.toml policy=donation workers=2: donation needs"* &&
   $(grep -c 'scenario=pool' <<<"$out") -eq 4 && $out == *"sweep multi: 8 cells"* ]] || fail "dry run of a scenario axis: $out"
out=$(ts sweep multi/multi.toml --axis scenario=multi/fwd.toml,multi/pp.toml --axis policy=stealing -o multi/r --report multi/r.html 2>&1) ||
  fail "sweep over two scenarios failed: $out"
grep -q 'Scaling per policy: multi/fwd.toml (sim)' multi/r.html && grep -q 'Scaling per policy: multi/pp.toml (real)' multi/r.html &&
  grep -q 'scenarios forward (forward), pingpong (pingpong);' multi/r.html || fail "the report does not chart each scenario on its own"
[[ $out == *"4 cells; ran 4 in"*"4 OK, 0 FAIL, 0 ERROR"* ]] || fail "sweep over two scenarios: $out"
head -1 multi/r.csv | grep -q '^cell,backend,scenario,policy,workers,machine,name,.*workload\.hops,.*workload\.bounces,' ||
  fail "the CSV of a scenario axis: $(head -1 multi/r.csv)"
python3 - <<'PY' || fail "rows of a scenario axis: $(head -2 multi/r.jsonl)"
import csv, json
rows = [json.loads(line) for line in open("multi/r.jsonl")]
kinds = {(r["backend"], r["scenario_axis"]): (r["scenario"]["workload"]["kind"], r["messages"]) for r in rows}
assert kinds == {(b, s): k for b in ("sim", "real") for s, k in
                 (("multi/fwd.toml", ("forward", 10 * 101)), ("multi/pp.toml", ("pingpong", 300)))}, kinds
assert sorted(r["scenario"] for r in csv.DictReader(open("multi/r.csv"))) == ["multi/fwd.toml"] * 2 + ["multi/pp.toml"] * 2
PY
expect2 "^twinsched: --param bounces=5: scenario multi/fwd\\.toml: unknown parameter 'bounces'" \
  sweep multi/multi.toml --axis scenario=multi/fwd.toml,multi/pp.toml --param bounces=5 --dry-run
printf '[axes]\nscenario = ["pool", "nope.toml"]\n' >multi/bad.toml
expect2 "^twinsched: multi/bad\\.toml:2:21: axes\\.scenario: nope\\.toml: scenario file 'multi/nope\\.toml' not found" sweep multi/bad.toml
sed -i 's/^bounces = .*/bounces = 400/' multi/pp.toml
expect2 "^twinsched: multi/r\\.sweep\\.json: the results beside it are another sweep's \\(scenario multi/pp\\.toml: workload\\.bounces was 300, is 400\\)" \
  sweep multi/multi.toml --axis scenario=multi/fwd.toml,multi/pp.toml --axis policy=stealing -o multi/r --resume

# Outputs in a folder that does not exist are refused before any cell runs (and no folder is made).
expect2 "^twinsched: -o nofolder/x: folder nofolder does not exist" sweep grid.toml -o nofolder/x
[[ ! -e nofolder ]] || fail "sweep -o nofolder/x created the folder"
expect2 "^twinsched: --report nofolder/r\\.html: folder nofolder does not exist" sweep grid.toml -o r2 --report nofolder/r.html
[[ ! -e r2.csv && ! -e r2.jsonl ]] || fail "sweep --report nofolder/r.html ran before refusing"
expect2 "^twinsched: --report grid\\.toml: .*input grid\\.toml" sweep grid.toml -o r3 --report grid.toml

finish "sweep"
