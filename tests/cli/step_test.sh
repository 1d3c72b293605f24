#!/usr/bin/env bash
# `twinsched trace step` end to end: a scripted session over a small simulated trace with steals, batch stops, bad input.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "step_test.sh PATH/TO/twinsched"
scenarios=$src/scenarios
cd "$tmp" || exit 1

# a small simulated run with steals: forward, 3 modeled cores (a few thousand events)
"$bin" sim --param actors=32 --param tokens=8 --param hops=40 --cores 3 --trace f.tst >sim.txt 2>&1 ||
  fail "sim --trace exited $?: $(cat sim.txt)"
steals=$("$bin" trace info f.tst | awk '$1 == "steal" { print $2 }')
events=$("$bin" trace info f.tst | awk '$1 == "events" && $2 ~ /^[0-9]+$/ { print $2 }')
[[ ${steals:-0} -gt 0 ]] && ok "the sim trace has $steals steals in $events events" || fail "no steals in the sim trace"

# the scripted session of the brief
out=$(printf 'next 3\nbreak kind steal\ncontinue\nworkers\nqueues\nmailboxes\nquit\n' | "$bin" trace step f.tst); rc=$?
printf '%s\n' "$out" >session.txt
[[ $rc -eq 0 ]] && ok "session exits 0" || fail "session exited $rc: $out"
[[ $out == *"(step) next 3"* && $out == *"(step) continue"* && $out == *"(step) quit"* ]] &&
  ok "piped commands are echoed after the prompt" || fail "commands not echoed: $out"
next3=$(sed -n '/^(step) next 3$/,/^(step) break/p' session.txt | grep -c '^#')
firsts=$(sed -n '/^(step) next 3$/,/^(step) break/p' session.txt | grep '^#' | awk '{print $1}' | tr '\n' ' ')
[[ $next3 -eq 3 && $firsts == "#1 #2 #3 " ]] && ok "next 3 prints events #1 #2 #3" || fail "next 3 printed: $firsts"
grep -q '^breakpoint 1: kind steal$' session.txt && ok "break kind steal is confirmed as breakpoint 1" ||
  fail "no breakpoint confirmation"
stop=$(sed -n '/^(step) continue$/,/^(step) workers/p' session.txt)
stop_line=$(printf '%s\n' "$stop" | grep '^#')
if [[ $stop == *"breakpoint 1 (kind steal), after "* && $(awk '{print $5}' <<<"$stop_line") == steal &&
  $stop_line == *" from w"* ]]; then
  ok "continue stops at a steal: $stop_line"
else
  fail "continue did not stop at a steal: $stop"
fi
stop_no=$(awk '{print substr($1, 2)}' <<<"$stop_line")
[[ ${stop_no:-0} -gt 3 ]] && ok "the first steal is event #$stop_no" || fail "stop event number '$stop_no'"
workers=$(sed -n '/^(step) workers$/,/^(step) queues/p' session.txt)
listed=$(printf '%s\n' "$workers" | grep -cE '^  w[0-9]+ ')
[[ $workers == *"workers (3):"* && $listed -eq 3 && $workers == *"  w0 "* && $workers == *"  w1 "* && $workers == *"  w2 "* ]] &&
  ok "workers lists every worker" || fail "workers listing: $workers"
[[ $workers =~ (running\ actor|looking\ for\ work|idle|parked) ]] && ok "workers say what each does" ||
  fail "no worker state: $workers"
queues=$(sed -n '/^(step) queues$/,/^(step) mailboxes/p' session.txt)
qtotal=$(printf '%s\n' "$queues" | sed -n 's/^runnable actors, by the worker that queued them.*: \([0-9]*\)$/\1/p')
qsum=$(printf '%s\n' "$queues" | awk '/^  (w[0-9]+|outside) +[0-9]+:/ { sub(":", "", $2); s += $2 } END { print s + 0 }')
[[ -n $qtotal && $qtotal -eq $qsum ]] && ok "queues: $qtotal runnable actors, the groups add up" ||
  fail "queues total '$qtotal' vs groups $qsum: $queues"
mail=$(sed -n '/^(step) mailboxes$/,/^(step) quit/p' session.txt)
[[ $mail =~ mailboxes:\ [0-9]+\ messages\ waiting\ in\ [0-9]+\ actors ]] && ok "mailboxes prints a total" ||
  fail "mailboxes: $mail"

# batch mode stops at the same steal, and `event N` reaches the same event
batch=$("$bin" trace step f.tst --break steal --batch); rc=$?
[[ $rc -eq 0 && $batch == *"$stop_line"* && $batch == *"workers (3):"* && $batch == *"runnable actors"* ]] &&
  ok "--batch --break steal stops at the same event and prints the state" || fail "batch ($rc): $batch"
batch=$("$bin" trace step f.tst --break "event $stop_no" --batch)
[[ $batch == *"breakpoint 1 (event $stop_no), after $stop_no events:"*"$stop_line"* ]] &&
  ok "--break 'event $stop_no' stops with that event applied" || fail "event breakpoint: $batch"

# at the end of a run nothing is runnable and every mailbox is empty (quiescence), every worker stopped
end=$("$bin" trace step f.tst --batch)
if [[ $end == *"end of the trace after $events more events"* && $end == *"oldest queued first: 0"* &&
  $end == *"mailboxes: 0 messages waiting in 0 actors"* && $(grep -c '    stopped (at' <<<"$end") -eq 3 ]]; then
  ok "the end state is quiescent"
else
  fail "end state: $end"
fi
# ... also through donations, which move messages between mailboxes and push their recipients
"$bin" sim "$scenarios/sim_pool_donation.toml" --cores 4 --param bursts=1 --param burst_size=80 \
  --trace d.tst >/dev/null 2>&1 || fail "donation sim exited $?"
out=$("$bin" trace step d.tst --break donate --batch)
[[ $out =~ donate\ +msg\ [0-9]+:[0-9]+\ +from\ actor\ [0-9]+\ to\ actor\ [0-9]+ ]] &&
  ok "a donation names its donor and recipient" || fail "donate line: $out"
end=$("$bin" trace step d.tst --batch)
[[ $end == *"oldest queued first: 0"* && $end == *"mailboxes: 0 messages waiting in 0 actors"* ]] &&
  ok "the donation trace ends with empty mailboxes" || fail "donation end state: $end"

# --until, a decisions-level trace, and a session that ends at end of input
out=$("$bin" trace step f.tst --until 5us --batch)
[[ $out == *"until 0.005000 ms, after"* ]] && ok "--until 5us stops there" || fail "--until: $out"
"$bin" run --param actors=16 --param tokens=4 --param hops=20 --trace r.tst --trace-level decisions >/dev/null 2>&1 ||
  fail "run --trace-level decisions exited $?"
out=$(printf 'mailboxes\nnext 2\n' | "$bin" trace step r.tst); rc=$?
[[ $rc -eq 0 && $out == *"need a full-level trace"*"this one is decisions level"* && $(grep -c '^#' <<<"$out") -eq 2 ]] &&
  ok "decisions level: mailboxes not known; end of input ends the session" || fail "decisions trace ($rc): $out"

# bad input: unknown commands continue the session; bad flags are usage errors
out=$(printf 'frobnicate\nnext zero\nbreak kind stael\nnext\n' | "$bin" trace step f.tst)
[[ $out == *"error: unknown command 'frobnicate'"* && $out == *"error: \`next\` takes a positive count"* &&
  $out == *"unknown event kind"* && $out == *"#1 "* ]] && ok "bad commands: one-line errors, the session goes on" ||
  fail "bad commands: $out"
err=$("$bin" trace step f.tst --break "kind stael" --batch 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"unknown event kind"* ]] && ok "--break 'kind stael': exit 2" || fail "--break bad: $rc $err"
err=$("$bin" trace step f.tst --until 5parsecs --batch 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"unknown unit"* ]] && ok "--until 5parsecs: exit 2" || fail "--until bad: $rc $err"
help=$("$bin" trace step --help)
[[ $help == *"--break"* && $help == *"kind steal"* && $help == *"time 1.5ms"* && $help == *"--batch"* ]] &&
  ok "trace step --help teaches the break specs" || fail "help: $help"

# One time base (a real run's clock starts tens of ms before its run): a time read off the
# report finds the same event in `trace step`, and the Perfetto export, the step and the
# report all put the run's first event at 0.
"$bin" run --param actors=32 --param tokens=8 --param hops=40 --workers 2 --trace real.tst --trace-level full \
  >real.txt 2>&1 || fail "run --trace exited $?: $(cat real.txt)"
zero=$("$bin" trace info real.tst | awk '$1 == "time" && $2 == "zero" {print $7}')
[[ -n $zero && $zero != 0.000000 ]] && ok "trace info: the run's first event is $zero s into the trace's clock" ||
  fail "trace info's time zero: '$zero'"
"$bin" report real.tst -o real.html 2>/dev/null || fail "report exited $?"
# a turn from the report's timeline (its exact spells: lane, state 1 = running, begin and end
# in ns on the report's axis, actor): the 20th, well inside the run
read -r lane begin actor < <(python3 - <<'PY'
import json, re
page = open("real.html").read()
spells = json.loads(re.search(r'id="spells-A">(\[.*?\])</script>', page).group(1))
running = [s for s in spells if s[1] == 1]
s = running[min(20, len(running) - 1)]
print(s[0], s[2], s[4])
PY
)
at=$(printf '%d.%06d ms' $((begin / 1000000)) $((begin % 1000000)))
out=$(printf 'continue\nnext 12\n' | "$bin" trace step real.tst --until "${begin}ns")
if [[ -n $begin && $out == *"until "*" after "* ]] && grep -qE "^#[0-9]+ +$at +w$lane +run_begin +actor $actor( |\$)" <<<"$out"; then
  ok "the report's turn of actor $actor on w$lane at $at is the step's run_begin at --until ${begin}ns"
else
  fail "the report's turn (w$lane, actor $actor, $at) is not where trace step finds it: $out"
fi
first=$(printf 'next\n' | "$bin" trace step real.tst | grep -m1 '^#1 ' | awk '{print $2}')
[[ $first == 0.000000 ]] && ok "trace step: the first event at 0" || fail "trace step's first event at '$first'"
"$bin" export perfetto real.tst -o real.json >/dev/null 2>&1 || fail "export perfetto exited $?"
pfirst=$(python3 -c 'import json; print(min(float(e["ts"]) for e in json.load(open("real.json"))["traceEvents"] if e["ph"] != "M"))')
[[ $pfirst == 0.0 ]] && ok "export perfetto: the first event at 0, as in trace step" || fail "Perfetto's first event at '$pfirst'"
for cmd in "trace step" "trace info" "diff" "report" "analyze" "export perfetto"; do
  # shellcheck disable=SC2086
  "$bin" $cmd --help | tr '\n' ' ' | grep -q "since the run began" && ok "$cmd --help states the time base" ||
    fail "$cmd --help does not say its times are since the run began"
done

finish "step"
