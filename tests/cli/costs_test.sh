#!/usr/bin/env bash
# `twinsched profile` and `sim --costs` from the command line: a profile is written and charged, and bad paths or files fail in one line before any work.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "costs_test.sh PATH/TO/twinsched"
cd "$tmp" || exit 1
small=(--param hops=500 --param actors=50 --param tokens=10)

out=$("$bin" profile forward "${small[@]}" -o f.toml 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"profile  forward, stealing, 1 worker: 5010 turns of 1 kind"* && $out == *forwarder* ]] &&
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
