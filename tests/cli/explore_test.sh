#!/usr/bin/env bash
# twinsched explore and sim's schedule flags from the command line: a clean search passes, a schedule seed replays, bad schedules fail in one line.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "explore_test.sh PATH/TO/twinsched"
scenarios=$src/scenarios
cd "$tmp" || exit 1

out=$("$bin" explore "$scenarios/pingpong.toml" --policy sharing --idle park --cores 3 --param pairs=2 \
  --param bounces=200 --runs 30 --jobs 2 --out x 2>err.txt); rc=$?
[[ $rc -eq 0 && $out == *"explore: 30 schedules (seeds 0..29, random seed=0 p=0.002 delay=200..50000): no invariant broken"* ]] &&
  ok "a clean tree passes a search" || fail "clean search ($rc): $out $(cat err.txt)"
[[ -f x/scenario.toml ]] && grep -q '^checks = true' x/scenario.toml && ok "explore writes the scenario it ran, with its checks on" ||
  fail "x/scenario.toml: $(cat x/scenario.toml 2>&1)"

# a schedule seed is one run: twice the same, event for event
a=$("$bin" sim x/scenario.toml --cores 3 --schedule 5 --p 0.01 --json | grep '"event_hash"')
b=$("$bin" sim x/scenario.toml --cores 3 --schedule 5 --p 0.01 --json | grep '"event_hash"')
c=$("$bin" sim x/scenario.toml --cores 3 --schedule 6 --p 0.01 --json | grep '"event_hash"')
[[ -n $a && $a == "$b" && $a != "$c" ]] && ok "sim --schedule SEED replays the same run" || fail "schedule replay: '$a' '$b' '$c'"
text=$("$bin" sim x/scenario.toml --cores 3 --preemptions 0:100:5000,1:200:3000)
[[ $text == *"schedule      list 0:100:5000,1:200:3000: "*" preemptions applied"* ]] &&
  ok "sim --preemptions applies a list and says so" || fail "preemptions: $text"

# bad schedules: one line, exit 2
err=$("$bin" sim x/scenario.toml --preemptions 0:1 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == "twinsched: --preemptions: a preemption is WORKER:OPERATION:DELAY_NS, not '0:1'" ]] &&
  ok "a bad --preemptions fails in one line" || fail "bad preemptions ($rc): $err"
err=$("$bin" sim x/scenario.toml --p 2 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == "twinsched: --p takes a probability in [0, 1], not '2'" ]] && ok "--p above 1 fails" || fail "--p ($rc): $err"
err=$("$bin" explore x/scenario.toml --strategy list 2>&1 >/dev/null); rc=$?
[[ $rc -eq 2 && $err == *"--strategy list needs --preemptions"* ]] && ok "explore --strategy list without a list fails" || fail "list ($rc): $err"

finish "explore"
