#!/usr/bin/env bash
# Progress on long commands: `sim --cores LIST` prints each row as its simulation ends; sim, run,
# replay and report show a progress line on a terminal (faked with script(1)) once they pass a
# second, with the figures that say how far they have got (simulated time and messages; messages;
# recorded turns; events read), none under --json or when stderr is not a terminal, and the same
# results whether the line is shown or not.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "progress_test.sh PATH/TO/twinsched"
# How many hops of 40 tokens the simulator takes about `$2` real seconds over on this machine,
# whatever its speed (an ASan build is several times slower), from a run of 100,000 hops (4 M
# messages) with the extra flags `$1` (a trace makes a simulation slower), capped at `$3`.
# Longer runs simulate faster per message (the run's fixed costs weigh less), and a loaded
# machine is noisy: the figure errs on the short side, hence targets longer than needed (a
# line needs more than a second). A probe of 20,000 hops once took 0.31 s, so a 4 s target
# ran 1.2 s and printed one line only: the probe is long enough now for its fixed costs to vanish.
# The faster of two probes: a probe slowed by a neighbour (ctest -j) would size the runs short,
# and a run that then finds the machine quiet ends before its first line.
hops_for() {
  local real_s
  real_s=$(for _ in 1 2; do
    "$bin" sim --cores 2 --param tokens=40 --param hops=100000 $1 --json 2>/dev/null |
      grep -oE '"real_s": *[0-9.e+-]+' | grep -oE '[0-9.e+-]+$'
  done | sort -g | head -1)
  awk -v s="${real_s:-1}" -v t="$2" -v cap="$3" 'BEGIN { n = int(100000 * t / s); print (n < 20000 ? 20000 : n > cap ? cap : n) }'
}
# A forward run the simulator takes 2 to 4 s over (about 15 M messages here).
long=(--param tokens=40 --param hops=${PROGRESS_HOPS:-$(hops_for "" 4 1000000)})
echo "simulations of ${long[*]}"
# On threads, a run whose length does not depend on the machine's speed: 4,004 messages of
# 1 ms of burn each, about 2 s on 2 workers (12M plain messages take under a second on a
# quiet machine, and then no progress is due).
burning=(--param tokens=4 --param hops=1000 --param cost_ns=1000000)
# Under ASan every simulation child warns once that SimGrid's context switches leave the stack
# ASan knows (3 lines); that is the sanitizer speaking, not progress.
strip_asan() { sed -i '/ASan is ignoring requested __asan_handle_no_return/,+2d' "$1"; }
# A terminal's output, one line per redraw of the live line (it is redrawn after a carriage return).
tty_run() { timeout 200 script -qec "$(printf '%q ' "$@")" /dev/null | tr '\r' '\n'; }
erase=$'\e[K'  # the live line ends with it; nothing else prints it
# A number as the progress line prints it (12, 4.1, 0.5) with its multiple, and one that is not zero.
num='[0-9]+(\.[0-9]+)?'
nonzero='([1-9][0-9]*(\.[0-9]+)?|0\.[0-9]*[1-9][0-9]*)'
# Distinct values of the figure matched by `$2` (one extended regex with one group) in `$1`.
distinct() { grep -oE "$2" <<<"$1" | sort -u | wc -l; }
# live_line CMD OUT LINE COUNTED SHOWS COUNTS: what CMD printed on a terminal (OUT) has its live
# line (LINE, with SHOWS) and one with figures above zero (COUNTED); false after a failure
live_line() {
  local cmd=$1 out=$2 line=$3 counted=$4
  if ! grep -qE "$line" <<<"$out"; then
    fail "$cmd on a terminal showed no line with $5: $out"
  elif ! grep -qE "$counted" <<<"$out"; then
    fail "$cmd's progress never $6: $out"
  else
    echo "ok: $cmd's live line: $(grep -oE "$line" <<<"$out" | tail -1)"
    return 0
  fi
  return 1
}

# 1. Rows stream: each row is stamped when it is read; the second simulation is as long as the
#    first, so a table printed at the end would show both rows at the same moment.
start=$(date +%s%N)
while IFS= read -r line; do
  echo "$(( ($(date +%s%N) - start) / 1000000 )) $line"
done < <(timeout 200 "$bin" sim --cores 2,2 "${long[@]}" 2>"$tmp/err.txt") >"$tmp/stamped.txt"
rows=$(grep -E '^[0-9]+ +2 +2 ' "$tmp/stamped.txt")
t1=$(echo "$rows" | sed -n 1p | cut -d' ' -f1); t2=$(echo "$rows" | sed -n 2p | cut -d' ' -f1)
if [[ -z $t1 || -z $t2 ]]; then
  fail "the scaling table lacks its two rows: $(cat "$tmp/stamped.txt")"
elif (( (t2 - t1) * 10 < t2 * 3 )); then
  fail "the rows came together (first at ${t1} ms, second at ${t2} ms): the table was not streamed"
else
  echo "ok: rows streamed (first at ${t1} ms, second at ${t2} ms)"
fi
piped_hash=$(echo "$rows" | sed -n 1p | awk '{print $NF}')
strip_asan "$tmp/err.txt"
[[ ! -s $tmp/err.txt ]] || fail "progress printed when stderr is not a terminal: $(cat "$tmp/err.txt")"

# 2. sim on a terminal: simulated time and messages so far, both moving; the same result as
#    the piped run above, which showed no line (the row's event hash).
out=$(tty_run "$bin" sim --cores 2 "${long[@]}")
line="sim: forward on 2 cores: simulated ($num (ns|us|ms|s)), ($num( [kMG])?) of $num( [kMG])? messages, $num s"
if live_line sim "$out" "$line" "simulated $nonzero (ns|us|ms|s), $nonzero( [kMG])? of $num( [kMG])? messages" \
  "simulated time and messages" "showed simulated time and messages above zero"; then
  (( $(distinct "$out" "simulated $num (ns|us|ms|s), $num( [kMG])? of") >= 2 )) || fail "sim's progress figures never moved: $out"
fi
[[ $out == *"verdict"*OK* ]] || fail "sim on a terminal printed no summary: $out"
tty_hash=$(grep -oE 'event hash +[0-9a-f]{16}' <<<"$out" | awk '{print $3}')
if [[ -z $piped_hash || $tty_hash != "$piped_hash" ]]; then
  fail "the same simulation with progress shown and not differs: event hash '$tty_hash' on a terminal, '$piped_hash' piped"
else
  echo "ok: the same event hash with and without the progress line ($tty_hash)"
fi
out=$(tty_run "$bin" sim --cores 2 --param hops=100)
[[ $out != *"$erase"* ]] || fail "a short sim showed progress: $out"

# 3. run on a terminal: messages so far of those expected, and a rate; none under --json.
out=$(tty_run "$bin" run "${burning[@]}" --workers 2)
line="run: forward, stealing, 2 workers: ($num( k)?) of 4\.0 k messages, $num( [kMG])?/s, $num s"
live_line run "$out" "$line" "workers: $nonzero( k)? of 4\.0 k messages" "messages" "counted a message"
[[ $out == *"verdict"*OK* ]] || fail "run on a terminal printed no summary: $out"
out=$(tty_run "$bin" run "${burning[@]}" --workers 2 --json)
[[ $out != *"$erase"* ]] || fail "run --json showed progress: $out"
[[ $out == *'"ok": true'* ]] || fail "run --json on a terminal gave no good result: $out"

# 4. A trace that the simulator records in 2 to 4 s (4 to 6 M messages here, 34 MB a million):
#    replaying it takes about half as long (1.9 M messages replayed in 0.75 s once: no line),
#    reading it longer.
hops=$(hops_for "--trace $tmp/small.tst" 4 150000)
rm -f "$tmp/small.tst"
"$bin" sim --cores 2 --param tokens=40 --param hops="$hops" --trace "$tmp/big.tst" --json \
  >/dev/null 2>&1 || fail "recording the big trace failed"
echo "ok: recorded a trace of $((40 * (hops + 1))) messages"

# 5. replay on a terminal: simulated time, messages and recorded turns replayed; the replay
#    shown with progress is identical to the recording.
out=$(tty_run "$bin" replay "$tmp/big.tst" -o "$tmp/replayed.tst")
line="replay: replaying [^:]*big\.tst: simulated $num (ns|us|ms|s), $num( [kMG])? of $num( [kMG])? messages, ($num( [kMG])?) of $num( [kMG])? recorded turns"
live_line replay "$out" "$line" "messages, $nonzero( [kMG])? of $num( [kMG])? recorded turns" "recorded turns" \
  "counted a recorded turn"
[[ $out == *"identical     yes"* ]] || fail "the replay shown with progress is not identical to its recording: $out"
rm -f "$tmp/replayed.tst"

# 6. report on a terminal: the events read of the trace's; none when stderr is not a terminal.
out=$(tty_run "$bin" report "$tmp/big.tst" -o "$tmp/big.html")
line="report: reading [^:]*big\.tst: ($num( [kMG])?) of $num( [kMG])? events read, $num s"
live_line report "$out" "$line" "big\.tst: $nonzero( [kMG])? of" "events read" "counted an event"
"$bin" report "$tmp/big.tst" -o "$tmp/big2.html" >/dev/null 2>"$tmp/err.txt" || fail "report failed when piped"
[[ $(grep -cv '^twinsched: wrote ' "$tmp/err.txt") -eq 0 ]] ||
  fail "report printed progress when stderr is not a terminal: $(cat "$tmp/err.txt")"

finish "progress"
