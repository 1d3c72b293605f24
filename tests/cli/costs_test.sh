#!/usr/bin/env bash
# `twinsched profile` and `sim --costs` from the command line: a profile is written and charged, and bad paths or files fail in one line before any work.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "costs_test.sh PATH/TO/twinsched"
cd "$tmp" || exit 1
small=(--param hops=500 --param actors=50 --param tokens=10)

out=$("$bin" profile forward "${small[@]}" -o f.toml 2>&1); rc=$?
# a turn whose thread lost its core is left out, and counted: together they are every message
counted=$(sed -nE 's/^profile  forward, stealing, 1 worker: ([0-9]+) turns of 1 kind \(([0-9]+) preempted, left out\).*/\1+\2/p' <<<"$out")
[[ $rc -eq 0 && -n $counted && $((counted)) -eq 5010 && $out == *forwarder* ]] &&
  ok "profile runs one worker by default and lists each kind of turn" || fail "profile ($rc): $out"
grep -q '^\[\[kind\]\]' f.toml && grep -q '^quantiles_ns = \[' f.toml && ok "the profile file holds its kinds" ||
  fail "f.toml: $(cat f.toml)"
out=$("$bin" sim forward "${small[@]}" --cores 2 --costs f.toml 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"costs         profile f.toml: 5010 turns charged"* ]] &&
  ok "sim --costs charges every turn from the profile and says so" || fail "sim --costs ($rc): $out"
out=$("$bin" sim forward "${small[@]}" --cores 2 2>&1)
[[ $out == *"costs         declared: a behavior's own code costs what it declares"* ]] &&
  ok "sim without --costs says what it charges" || fail "sim without --costs: $out"
a=$("$bin" sim forward "${small[@]}" --cores 2 --costs f.toml --json | grep '"event_hash"')
b=$("$bin" sim forward "${small[@]}" --cores 2 --costs f.toml --json | grep '"event_hash"')
[[ -n $a && $a == "$b" ]] && ok "a simulation with a profile is deterministic" || fail "determinism: '$a' '$b'"
"$bin" sim forward "${small[@]}" --cores 2 --costs f.toml --json >j.json &&
  grep -q '"charged_turns": 5010' j.json && ok "--json carries the profile's charge" || fail "json: $(grep -A6 costs j.json)"
out=$("$bin" profile forward "${small[@]}" --workers 2 -o f2.toml --trace f2.tst 2>&1) && [[ -s f2.tst ]] &&
  [[ $out == *"2 workers"* ]] && ok "profile --workers and --trace" || fail "profile --workers --trace: $out"

# whatif: a simulated recording, predicted with the costs it was simulated with, is its own
# configuration exactly (error 0, so the least bar); other configurations are simulated
"$bin" sim forward "${small[@]}" --cores 2 --costs f.toml --trace rec.tst >/dev/null
out=$("$bin" whatif rec.tst --costs f.toml --policy stealing,sharing --cores 2,4 --report w.html 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"model      the same configuration simulated: "*" ms (+0.0%), so each prediction carries +-5.0%"* ]] &&
  ok "whatif simulates the recorded configuration as recorded" || fail "whatif self ($rc): $out"
recorded=$(sed -n 's/.*makespan \([0-9.]*\) ms/\1/p' <<<"$out")
[[ $out == *"  stealing            2"*"$recorded"* && $out == *"  sharing             4"* ]] &&
  ok "whatif predicts each policy x cores, the recorded one at the recorded makespan" || fail "whatif table: $out"
grep -q '<svg' w.html && grep -q 'recorded (sim, stealing)' w.html && ok "whatif --report draws the predictions and the recording" ||
  fail "whatif report"
# another profile than the recording's (every turn 5 us): the model's error on the recording, and the bar, show it
sed -E 's/^mean_ns = .*/mean_ns = 5000.0/; s/^quantiles_ns = .*/quantiles_ns = ['"$(printf '5000.0, %.0s' {1..20})"'5000.0]/' f.toml >slow.toml
out=$("$bin" whatif rec.tst --costs slow.toml --policy stealing --cores 2 --json 2>&1)
bar=$(sed -nE 's/^  "bar": ([0-9.]+),?$/\1/p' <<<"$out")
[[ $out == *'"self_error": '[1-9]* && -n $bar && ${bar%%.*} -ge 1 ]] &&
  ok "whatif with another profile than the recording's: its error on the recording widens the bar" || fail "whatif json: $out"
# --errors: the model's errors at 2 cores (ten cases, -50% to +40%; of n = 10 the 80% band is
# ranks floor(11/10) = 1 to ceil(99/10) = 10) widen a 2-core prediction p's range to
# [p / 1.4, p / 0.5]; 4 cores have no errors there, so their bar stays +-5%
python3 - <<'PY'
import json
cases = [{"workers": 2, "ok": True, "host_moved": False, "error": {"makespan_ms": e}} for e in range(-50, 50, 10)]
json.dump({"cases": cases}, open("errs.json", "w"))
PY
out=$("$bin" whatif rec.tst --costs f.toml --policy stealing --cores 2,4 --errors errs.json --json 2>errs.err); rc=$?  # stderr apart: sanitizers write there
check=$(python3 -c '
import json, sys
w = json.loads(sys.argv[1])
c2, c4 = (next(c for c in w["cases"] if c["cores"] == n) for n in (2, 4))
p2, p4 = c2["predicted_s"], c4["predicted_s"]
ok = (abs(c2["low_s"] - p2 / 1.4) < 1e-9 * p2 and abs(c2["high_s"] - p2 / 0.5) < 1e-9 * p2
      and c2["error_band"] == {"low": -0.5, "high": 0.4, "cases": 10}
      and "error_band" not in c4 and abs(c4["low_s"] - p4 * 0.95) < 1e-9 * p4)
print("ok" if ok else "bad")' "$out" 2>&1)
[[ $rc -eq 0 && $check == ok ]] && ok "whatif --errors widens each range to where 80% of the model's errors at its cores lie" ||
  fail "whatif --errors ($rc, $check): $out $(cat errs.err)"
out=$("$bin" whatif rec.tst --costs f.toml --policy stealing --cores 2 --errors errs.json 2>&1)
[[ $out == *"errors     errs.json: 2 workers -50.0% to +40.0% (10); a prediction's range also spans where 80%"* ]] &&
  ok "whatif names the errors it widened the ranges by" || fail "whatif --errors text: $out"
err=$("$bin" whatif rec.tst --errors nope.json 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"nope.json"* ]] && ok "whatif refuses a missing --errors file" || fail "whatif --errors nope ($rc): $err"
echo '{"runs": 1}' >notacc.json
err=$("$bin" whatif rec.tst --errors notacc.json 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"notacc.json: not the JSON of \`twinsched accuracy --json\`"* ]] &&
  ok "whatif refuses --errors that is not accuracy's JSON" || fail "whatif --errors notacc ($rc): $err"
err=$("$bin" whatif rec.tst --policy nope 2>&1); rc=$?
[[ $rc -eq 2 && $err == "twinsched: --policy: unknown policy 'nope' (see \`twinsched list policies\`)" ]] &&
  ok "whatif refuses an unknown policy" || fail "whatif --policy nope ($rc): $err"
err=$("$bin" whatif rec.tst --report rec.tst 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"same file as the input"* ]] && ok "whatif refuses a report over its trace" || fail "whatif --report ($rc): $err"

# errors: one line, exit 2, nothing written
err=$("$bin" sim forward --costs nope.toml 2>&1); rc=$?
[[ $rc -eq 2 && $err == "twinsched: nope.toml: cannot open cost profile" ]] && ok "a missing profile is exit 2" ||
  fail "missing ($rc): $err"
printf 'scenario = "x"\nworkload = "w"\nworkers = 1\n[[kind]]\nbehavior = "b"\ntag = 1\nturns = 0\nmean_ns = 1.0\n' >bad.toml
err=$("$bin" sim forward --costs bad.toml 2>&1); rc=$?
[[ $rc -eq 2 && $err == "twinsched: bad.toml:7:"* ]] && ok "a bad profile fails at its line" || fail "bad ($rc): $err"
err=$("$bin" profile forward 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"--output is required"* ]] && ok "profile needs -o" || fail "no -o ($rc): $err"
cp "$src/scenarios/pingpong.toml" p.toml
err=$("$bin" profile p.toml -o p.toml 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"same file as the input"* ]] && cmp -s p.toml "$src/scenarios/pingpong.toml" &&
  ok "profile refuses to write over its scenario" || fail "-o over the scenario ($rc): $err"
err=$("$bin" sim forward --costs f.toml --trace f.toml 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"same file as the input"* ]] && grep -q '^\[\[kind\]\]' f.toml &&
  ok "sim refuses a trace over its profile" || fail "--trace over --costs ($rc): $err"

finish "costs"
