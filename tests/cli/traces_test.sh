#!/usr/bin/env bash
# The trace subcommands end to end: run --trace, trace info, diff (--tolerance, --json), export perfetto, and a damaged file.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "traces_test.sh PATH/TO/twinsched"

small=(--param actors=64 --param tokens=16 --param hops=300)
cd "$tmp" || exit 1

# run --trace: a full trace by default, decisions on request; the summary is unchanged
"$bin" run "${small[@]}" --trace a.tst >run.txt 2>&1 || fail "run --trace exited $?: $(cat run.txt)"
grep -q '^verdict       OK' run.txt && ok "run --trace a.tst" || fail "run --trace printed no OK verdict"
"$bin" run "${small[@]}" --policy shared-queue --trace b.tst --trace-level decisions >/dev/null 2>&1 ||
  fail "run --trace-level decisions exited $?"
"$bin" run "${small[@]}" --param hops=301 --trace c.tst --trace-level decisions >/dev/null 2>&1 || fail "run hops=301 exited $?"
[[ -s a.tst && -s b.tst && -s c.tst ]] && ok "three traces written" || fail "a trace file is missing"

# the scenario's own `trace` key records to <name>.tst and says so
printf 'name = "keyed"\ntrace = "decisions"\n[workload]\nkind = "forward"\nactors = 8\ntokens = 2\nhops = 50\n' >keyed.toml
err=$("$bin" run keyed.toml 2>&1 >/dev/null)
[[ -s keyed.tst && $err == *"keyed.tst"* ]] && ok "scenario key trace = \"decisions\" writes keyed.tst" ||
  fail "the scenario's trace key wrote no keyed.tst (stderr: $err)"

# trace info
out=$("$bin" trace info a.tst); rc=$?
if [[ $rc -eq 0 && $out == *"events by kind"* && $out == *"message_begin"* && $out == *"queueing"* && $out == *"full level"* ]]; then
  ok "trace info a.tst"
else
  fail "trace info exited $rc or lacks counts: $out"
fi
out=$("$bin" trace info b.tst --json); rc=$?
[[ $rc -eq 0 && $out == *'"level": "decisions"'* && $out == *'"by_kind"'* ]] && ok "trace info --json" || fail "trace info --json: $rc $out"
"$bin" trace info a.tst --quick >/dev/null && ok "trace info --quick" || fail "trace info --quick"

# diff: same workload (another policy) is logically equal; exit 0 without a tolerance
out=$("$bin" diff a.tst b.tst); rc=$?
[[ $rc -eq 0 && $out == *"logical equivalence  equal"* && $out == *"scheduler.policy"* ]] && ok "diff a b: equal, exit 0" ||
  fail "diff a b exited $rc: $out"
# ... and exit 1 with a tolerance no real pair meets
out=$("$bin" diff a.tst b.tst --tolerance 0%); rc=$?
[[ $rc -eq 1 && $out == *"exceeded by"* ]] && ok "diff --tolerance 0% exits 1" || fail "diff --tolerance 0% exited $rc: $out"
"$bin" diff a.tst a.tst --tolerance 10% >/dev/null; rc=$?
[[ $rc -eq 0 ]] && ok "a trace against itself is within 10%" || fail "diff a a --tolerance 10% exited $rc"
out=$("$bin" diff a.tst c.tst --json); rc=$?
[[ $rc -eq 1 && $out == *'"verdict": "differ"'* && $out == *'"first_actor":'* ]] && ok "diff --json names a differing actor" ||
  fail "diff a c --json exited $rc: $out"
"$bin" diff a.tst b.tst --tolerance lots >/dev/null 2>&1; rc=$?
[[ $rc -eq 2 ]] && ok "a bad --tolerance is a usage error" || fail "diff --tolerance lots exited $rc"

# export perfetto
err=$("$bin" export perfetto a.tst -o a.json 2>&1); rc=$?
if [[ $rc -eq 0 && -s a.json && $(head -c 15 a.json) == '{"traceEvents":' && $err == *"slices"* ]]; then
  ok "export perfetto"
else
  fail "export perfetto exited $rc: $err"
fi
err=$("$bin" export perfetto a.tst -o s.json --max-flows 5 2>&1)
[[ $err == *"sampled"* ]] && ok "export perfetto says when arrows are sampled" || fail "no sampling note: $err"

# a damaged file: exit 2 and one line naming the byte
head -c 300 a.tst >cut.tst
err=$("$bin" trace info cut.tst 2>&1 >/dev/null); rc=$?
if [[ $rc -eq 2 && $err =~ ^twinsched:\ cut\.tst:\ byte\ [0-9]+:\  && $(printf '%s\n' "$err" | wc -l) -eq 1 ]]; then
  ok "a truncated trace: exit 2, $err"
else
  fail "truncated trace: exit $rc, stderr: $err"
fi
err=$("$bin" diff keyed.toml a.tst 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"byte 0: expected the trace magic"* ]] && ok "diff of a non-trace: exit 2" || fail "diff keyed.toml: $rc $err"

# sim --trace: two simulations of one scenario give traces with no diverging event
"$bin" sim "${small[@]}" --cores 2 --trace s1.tst >/dev/null 2>&1 || fail "sim --trace exited $?"
"$bin" sim "${small[@]}" --cores 2 --trace s2.tst >/dev/null 2>&1 || fail "second sim --trace exited $?"
out=$("$bin" diff s1.tst s2.tst); rc=$?
[[ $rc -eq 0 && $out == *"first divergence     none"* && $out == *"B  s2.tst: forward, sim,"* ]] &&
  ok "two simulated traces: identical event streams" || fail "sim traces differ or diff failed ($rc): $out"
err=$("$bin" sim "${small[@]}" --cores 1,2 --trace s3.tst 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"single --cores value"* ]] && ok "sim --trace with a --cores list: exit 2" || fail "sim --trace list: $rc $err"

# validate: real and simulated runs of one scenario, traced and diffed, logically equivalent
out=$("$bin" validate "${small[@]}" --out . 2>&1); rc=$?
[[ $rc -eq 0 && -s forward.real.tst && -s forward.sim.tst && $out == *"logical equivalence  equal"* ]] &&
  ok "validate: both traces written, logically equal" || fail "validate ($rc): $out"

# replay: a simulated trace comes out identical; a real one is followed and stays correct
out=$("$bin" replay s1.tst -o s1r.tst 2>/dev/null); rc=$?
[[ $rc -eq 0 && -s s1r.tst && $out == *"identical     yes:"* && $out == *"(100.0%)"* ]] &&
  ok "replay of a simulated trace: identical, every turn followed" || fail "replay s1.tst ($rc): $out"
out=$("$bin" replay a.tst -o ar.tst 2>/dev/null); rc=$?
[[ $rc -eq 0 && $out == *"verdict       OK"* && $out =~ replay\ +[1-9][0-9]*\ of\ [0-9]+\ recorded\ turns\ followed ]] &&
  ok "replay of a real trace: decisions followed, verdict OK" || fail "replay a.tst ($rc): $out"
# a scripted stepping session on the replay: piped commands, stops where told
out=$(printf 'next 2\nbreak kind run_begin\ncontinue\nworkers\nqueues\nmailboxes 3\nquit\n' |
  "$bin" replay s1.tst -o s1s.tst --step 2>/dev/null); rc=$?
if [[ $rc -eq 0 && $out == *"(step) next 2"* && $out == *"#2 "* && $out == *"breakpoint 1 (kind run_begin)"* &&
      $out == *"w1 "* && $out == *"runnable actors"* && $out == *"mailboxes:"* ]]; then
  ok "replay --step: a piped session steps, breaks, shows workers, queues and mailboxes"
else
  fail "replay --step ($rc): $out"
fi
out=$("$bin" replay s1.tst -o s1b.tst --until 20us --break steal 2>/dev/null); rc=$?
[[ $rc -eq 0 && $out =~ at\ event\ \#[0-9]+\ of && $out == *"workers ("* ]] &&
  ok "replay --until --break: prints the state where it stops" || fail "replay --until ($rc): $out"
err=$("$bin" replay cut.tst 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"cut.tst: byte"* ]] && ok "replay of a damaged trace: exit 2" || fail "replay cut.tst: $rc $err"

finish "traces"
