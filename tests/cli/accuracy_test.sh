#!/usr/bin/env bash
# twinsched accuracy on a tiny matrix: the table's shape, --markdown, --json that parses, the tolerances' exit codes, bad input in one line.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "accuracy_test.sh PATH/TO/twinsched"
models=$src/models/machines
cd "$tmp" || exit 1
# python3 reads --json below (scripts/setup.sh --test installs it); without it those checks cannot run.
command -v python3 >/dev/null || die "python3 not found: it reads --json here (scripts/setup.sh --test installs it)"
# Two cases of a few milliseconds each: forward with 200 hops per token, 1 worker, one measured run.
tiny=(--scenario forward --param hops=200 --policy stealing,shared-queue --workers 1 --runs 1)
# Until the host check's own tests below, the probes return the model's line transfer (the
# probes' test seam): a host whose figure hovers near 2x the stock model's would otherwise
# leave a case out or add re-runs, and these checks count cases and steps.
TWINSCHED_TEST_PROBES=$(sed -nE 's/^line_transfer_same_socket_ns = //p' "$models/this-machine.toml")
export TWINSCHED_TEST_PROBES

out=$("$bin" accuracy "${tiny[@]}" 2>err.txt); rc=$?
rows=$(grep -cE '^forward +(stealing|shared-queue) +1 ' <<<"$out")
# The columns are as wide as their widest cell, so the header is matched with any run of spaces between names.
header='scenario +policy +workers +real ms +real spread +sim ms +error'
if [[ $rc -eq 0 && $(grep -cE "^$header\$" <<<"$out") -eq 1 && $rows -eq 4 &&
      $out == *"busy %"* && $out == *"cases: 2 (2 compared, 0 failed)"* &&
      $out == *"makespan |error|: median "*", worst "*"within 10%: "*" of 2, within 25%: "*" of 2"* ]]; then
  ok "a tiny matrix prints a makespan row and a counters row per case, then the summary"
else
  fail "tiny matrix ($rc, $rows rows): $out $(cat err.txt)"
fi
# By default the real runs go in rounds: every case's warm-up, then every case's run, then the simulations.
[[ $(cat err.txt) == *"[1/6] forward stealing 1w: real warm-up"*"[2/6] forward shared-queue 1w: real warm-up"*"[3/6] forward stealing 1w: real run 1/1"*"[4/6] forward shared-queue 1w: real run 1/1"*"[5/6] forward stealing 1w: simulating"*"ETA"*"[6/6] forward shared-queue 1w: simulating"*"accuracy: 2 cases in "* ]] &&
  ok "progress goes to stderr, step by step with an ETA, the real runs in rounds" || fail "progress: $(cat err.txt)"
"$bin" accuracy "${tiny[@]}" --order cases >/dev/null 2>err.txt; rc=$?
[[ $rc -eq 0 && $(cat err.txt) == *"[1/6] forward stealing 1w: real warm-up"*"[2/6] forward stealing 1w: real run 1/1"*"[3/6] forward shared-queue 1w: real warm-up"*"[4/6] forward shared-queue 1w: real run 1/1"*"[5/6] forward stealing 1w: simulating"* ]] &&
  ok "--order cases runs one case's warm-up and runs in a row" || fail "--order cases ($rc): $(cat err.txt)"

out=$("$bin" accuracy "${tiny[@]}" --markdown 2>/dev/null); rc=$?
[[ $rc -eq 0 && $out == *"| scenario | policy | workers | real ms | real spread | sim ms | error |"* &&
   $out == *"|---|---|---:|---:|---:|---:|---:|"* && $out == *"| forward | stealing | 1 |"* && $out == *"- cases: 2"* ]] &&
  ok "--markdown prints Markdown tables" || fail "markdown ($rc): $out"

"$bin" accuracy "${tiny[@]}" --json >a.json 2>/dev/null; rc=$?
check_json() {
  python3 -c '
import json, sys
j = json.load(open("a.json"))
cases = j["cases"]
assert len(cases) == 2 and [c["policy"] for c in cases] == ["stealing", "shared-queue"], cases
for c in cases:
    assert c["ok"] and c["workers"] == 1 and c["cores"] == 1 and c["params"]["hops"] == 200, c
    assert len(c["real"]["runs_s"]) == 1 and c["real"]["makespan_ms"] > 0 and c["sim"]["makespan_ms"] > 0, c
    assert isinstance(c["error"]["makespan_ms"], float), c["error"]
    assert c["real"]["messages"] == c["sim"]["messages"] == 40200, c
s = j["summary"]
assert s["cases"] == 2 and s["compared"] == 2 and s["failed"] == 0, s
errs = sorted(abs(c["error"]["makespan_ms"]) for c in cases)
assert abs(s["median_abs_makespan_error_pct"] - sum(errs) / 2) < 1e-9 and s["worst_abs_makespan_error_pct"] == errs[-1], s
assert j["runs"] == 1 and j["warmup"] == 1 and j["order"] == "rounds" and j["machine"] == "this-machine" and j["pass"] is True, j
print("nonzero" if errs[0] > 0 else "zero")
'
}
verdict=$(check_json 2>&1)
case $verdict in
  nonzero | zero) ok "--json parses and holds every case, its errors and the summary" ;;
  *) fail "--json ($rc): $verdict" ;;
esac

if [[ $verdict == nonzero ]]; then
  "$bin" accuracy "${tiny[@]}" --tolerance 0 >out.txt 2>/dev/null; rc=$?
  [[ $rc -eq 1 ]] && grep -q "tolerance: median |makespan error| <= 0%: FAIL" out.txt &&
    ok "--tolerance 0 exits 1 on a nonzero error" || fail "--tolerance 0 exited $rc: $(cat out.txt)"
  "$bin" accuracy "${tiny[@]}" --worst-tolerance 0 >out.txt 2>/dev/null; rc=$?
  [[ $rc -eq 1 ]] && ok "--worst-tolerance 0 exits 1 on a nonzero error" || fail "--worst-tolerance 0 exited $rc"
fi
"$bin" accuracy "${tiny[@]}" --tolerance 100000000% --worst-tolerance 100000000% >out.txt 2>/dev/null; rc=$?
[[ $rc -eq 0 ]] && grep -q ": PASS" out.txt && ok "a huge tolerance exits 0" || fail "huge tolerance exited $rc: $(cat out.txt)"

"$bin" accuracy "${tiny[@]}" --report r.html >/dev/null 2>err.txt; rc=$?
[[ $rc -eq 0 && $(cat err.txt) == *"accuracy: wrote r.html"* && $(grep -c '<svg class="chart"' r.html) -eq 1 &&
   $(grep -o 'data-tip="forward [a-z-]* 1w: real' r.html | wc -l) -eq 2 && $(cat r.html) == *"makespan |error|: median "*", within 25%: "*" of 2"* ]] &&
  ok "--report writes a page with a bar per case" || fail "--report ($rc): $(cat err.txt)"

# bad input: one line on stderr, nothing on stdout, exit 2
bad() {  # bad EXPECTED-FRAGMENT ARGS...
  local want=$1
  shift
  local err out rc
  out=$("$bin" accuracy "$@" 2>err.txt); rc=$?
  err=$(cat err.txt)
  if [[ $rc -eq 2 && -z $out && $(wc -l <err.txt) -eq 1 && $err == *"$want"* ]]; then
    ok "accuracy $* fails in one line"
  else
    fail "accuracy $* ($rc): stdout '$out' stderr '$err'"
  fi
}
bad "--workers takes a comma-separated list of whole numbers from 1 to 1024, not '0'" --workers 0
bad "--workers takes a comma-separated list" --workers 1,
bad "--workers 1024: this machine has " --workers 1,1024
bad "--runs takes a whole number from 1 to 100, not '0'" --runs 0
bad "--tolerance takes a percentage such as 10% or a fraction such as 0.1, not 'abc'" --tolerance abc
bad "--policy" --policy bogus
bad "--order" --order bogus
bad "--scenario nosuch: no such stock scenario: no " --scenario nosuch
bad "nope.toml" --scenario nope.toml
bad "--param" --scenario forward --param nosuch=1
bad "nosuch-machine" --machine nosuch-machine
bad "--json and --markdown: choose one" --json --markdown
bad "no case to run" --scenario forward --policy donation --workers 1
bad "--report no/such/folder/r.html: folder no/such/folder does not exist" --report no/such/folder/r.html

# The host check: a line transfer probed before the real runs and after each, against the model's.
# A model 10,000x off either way (no state of any machine) must be flagged, in the table, on
# stderr before the runs and in the JSON; with no run in the model's state, every run counts
# and nothing is re-run. The stock model's probes must be recorded, one per run.
unset TWINSCHED_TEST_PROBES
if (( $(nproc) >= 2 )); then
  for far in 100000 0.001; do
    sed -E "s/^(line_transfer_(same|cross)_socket_ns) = .*/\1 = $far/" "$models/this-machine.toml" >"far-$far.toml"
    out=$("$bin" accuracy "${tiny[@]}" --machine "far-$far.toml" 2>err.txt); rc=$?
    if [[ $rc -eq 0 && $out == *"cases: 2 (2 compared, 0 failed)"* &&
          $out == *"HOST CHECK FAILED: line transfer here: "*" ns before the real runs, "*" after ("*" over 5 probes, one after each run); the model: "*"; 0 of 2 measured runs in the model's state"*"Not one: "*"twinsched calibrate -o FILE"* &&
          $(head -1 err.txt) == "accuracy: warning: line transfer here "*"over 2x apart"* && $(cat err.txt) != *"real re-run"* ]]; then
      ok "a model whose line transfer is $far ns fails the host check: warned before the runs, nothing re-run, every case judged"
    else
      fail "host check with line transfer $far ns ($rc): $out $(cat err.txt)"
    fi
  done
  "$bin" accuracy "${tiny[@]}" --machine far-100000.toml --json >far.json 2>/dev/null
  # The host moving within the matrix, through the probes' test seam (TWINSCHED_TEST_PROBES: the
  # figures the probes return, in order, the last repeating) and a model at 10 ns. --runs 2, no
  # warm-up: case A's runs lie between probes 0-1 and 2-3, B's between 1-2 and 3-4. With
  # 10,10,100,10,10 each has one run in state and one not; one re-run round (between probes
  # 4-5, 5-6, both 10) completes both. With 10,10,100 and --runs 1, B's run and its re-run
  # are both spoiled: B is left out, A is judged.
  sed -E "s/^(line_transfer_(same|cross)_socket_ns) = .*/\1 = 10/" "$models/this-machine.toml" >m10.toml
  moved=(--scenario forward --param hops=200 --policy stealing,shared-queue --workers 1 --warmup 0 --machine m10.toml --json)
  TWINSCHED_TEST_PROBES=10,10,100,10,10 "$bin" accuracy "${moved[@]}" --runs 2 >mixed.json 2>/dev/null
  TWINSCHED_TEST_PROBES=10,10,100 "$bin" accuracy "${moved[@]}" --runs 1 >left.json 2>/dev/null; rc=$?
  python3 -c '
import json
a, f = json.load(open("a.json"))["host_check"], json.load(open("far.json"))["host_check"]
assert a["matches"] is True and a["model_line_transfer_ns"] > 0 and a["runs_in_state"] == 2, a
assert len(f["host_line_transfer_ns"]) == 5 and all(0 < x < 10000 for x in f["host_line_transfer_ns"]), f
assert f["model_line_transfer_ns"] == 100000 and f["matches"] is False, f
assert f["runs_in_state"] == 0 and f["runs_off_state"] == 2 and f["reran"] == 0, f
' && ok "--json records the host check: a probe per run, the figure of the model, runs in and out of its state, whether they match" || fail "host_check in JSON"
  python3 -c '
import json
m, l = json.load(open("mixed.json")), json.load(open("left.json"))
h = m["host_check"]
assert h["host_line_transfer_ns"] == [10, 10, 100, 10, 10, 10, 10] and h["matches"] is True, h
assert (h["runs_in_state"], h["runs_off_state"], h["reran"]) == (4, 2, 2), h
for c in m["cases"]:
    r = c["real"]
    assert not c["host_moved"] and len(r["runs_s"]) == 2 and len(r["off_state_runs_s"]) == 1, c
    assert r["makespan_ms"] / 1e3 in r["runs_s"] or abs(r["makespan_ms"] / 1e3 - min(r["runs_s"])) < 1e-12, r
assert m["summary"]["compared"] == 2 and m["summary"]["host_moved"] == 0, m["summary"]
A, B = l["cases"]
assert not A["host_moved"] and B["host_moved"] and len(B["real"]["runs_s"]) == 2, (A, B)
s = l["summary"]
assert s["compared"] == 1 and s["host_moved"] == 1 and s["worst_case"] == "forward stealing 1w", s
assert abs(s["worst_abs_makespan_error_pct"] - abs(A["error"]["makespan_ms"])) < 1e-9 and l["host_check"]["matches"] is False, s
' && [[ $rc -eq 0 ]] && ok "a host move between two runs: the spoiled runs are re-run and left out; a case with none in state is left out of the summary" ||
    fail "host moving within the matrix ($rc): $(cat mixed.json left.json | head -c 3000)"
fi

# --profile-costs: each scenario profiled first on 1 worker, its simulations charged from it:
# forward's own code is not free then, so the simulated makespan grows, all else equal
one=(--scenario forward --param hops=200 --policy stealing --workers 1 --runs 1 --warmup 0 --json)
"$bin" accuracy "${one[@]}" >plain.json 2>/dev/null && "$bin" accuracy "${one[@]}" --profile-costs >costs.json 2>err.txt
out=$(python3 - plain.json costs.json <<'EOP'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sa, sb = a["cases"][0]["sim"]["makespan_ms"], b["cases"][0]["sim"]["makespan_ms"]
print("ok" if b["profile_costs"] and not a["profile_costs"] and sb > sa else f"plain {sa} costs {sb}")
EOP
)
[[ $out == ok && $(cat err.txt) == *"[1/3] forward: profiling its behaviors on 1 worker"* ]] &&
  ok "--profile-costs profiles each scenario first and charges its simulation from it" || fail "--profile-costs: $out $(cat err.txt)"

# --idle: each scenario under each idle strategy, named SCENARIO+IDLE; CPU time and latency compared
"$bin" accuracy --scenario open-light --param requests=200 --policy stealing --idle busy-spin,park --workers 1 --runs 1 \
  --warmup 0 --json >idle.json 2>/dev/null
out=$(python3 -c '
import json
j = json.load(open("idle.json"))
names = sorted((c["scenario"], c["idle"]) for c in j["cases"])
assert names == [("open-light+busy-spin", "busy-spin"), ("open-light+park", "park")], names
for c in j["cases"]:
    assert c["real"]["latency_p99_us"] > 0 and c["sim"]["latency_p99_us"] > 0 and c["sim"]["cpu_ms"] > 0, c
    assert "latency_p50_us" in c["error"] and "cpu_ms" in c["error"]
spin = [c for c in j["cases"] if c["idle"] == "busy-spin"][0]
park = [c for c in j["cases"] if c["idle"] == "park"][0]
assert spin["sim"]["cpu_ms"] > 3 * park["sim"]["cpu_ms"], (spin["sim"], park["sim"])
print("ok")
' 2>&1)
[[ $out == ok ]] && ok "--idle runs each scenario under each idle strategy and compares CPU time and latency" || fail "--idle: $out"
err=$("$bin" accuracy --scenario open-light --idle nap 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"--idle"* ]] && ok "--idle refuses an unknown strategy" || fail "--idle nap ($rc): $err"

finish "accuracy"
