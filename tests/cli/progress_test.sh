#!/usr/bin/env bash
# Progress on long commands: `sim --cores LIST` prints each row as its simulation ends; sim and run
# show a progress line on a terminal (faked with script(1)) once they pass a second, and none
# under --json or when stderr is not a terminal.
set -uo pipefail
bin=$(realpath "${1:?usage: progress_test.sh PATH/TO/twinsched}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A forward run the simulator takes a few seconds over (about 4 s here; over 1 s on a machine 3x faster).
long=(--param tokens=40 --param hops=${PROGRESS_HOPS:-600000})
# On threads, a run whose length does not depend on the machine's speed: 4,004 messages of
# 1 ms of burn each, about 2 s on 2 workers (12M plain messages take under a second on a
# quiet machine, and then no progress is due).
burning=(--param tokens=4 --param hops=1000 --param cost_ns=1000000)

# 1. Rows stream: each row is stamped when it is read; the second simulation is as long as the
#    first, so a table printed at the end would show both rows at the same moment.
start=$(date +%s%N)
while IFS= read -r line; do
  echo "$(( ($(date +%s%N) - start) / 1000000 )) $line"
done < <(timeout 200 "$bin" sim --cores 2,2 "${long[@]}" 2>"$tmp/err.txt") >"$tmp/stamped.txt"
rows=$(grep -E '^[0-9]+ +2 +2 ' "$tmp/stamped.txt" | cut -d' ' -f1)
t1=$(echo "$rows" | sed -n 1p); t2=$(echo "$rows" | sed -n 2p)
if [[ -z $t1 || -z $t2 ]]; then
  fail "the scaling table lacks its two rows: $(cat "$tmp/stamped.txt")"
elif (( (t2 - t1) * 10 < t2 * 3 )); then
  fail "the rows came together (first at ${t1} ms, second at ${t2} ms): the table was not streamed"
else
  echo "ok: rows streamed (first at ${t1} ms, second at ${t2} ms)"
fi
# Under ASan every simulation child warns once that SimGrid's context switches leave the stack
# ASan knows (3 lines); that is the sanitizer speaking, not progress.
sed -i '/ASan is ignoring requested __asan_handle_no_return/,+2d' "$tmp/err.txt"
[[ ! -s $tmp/err.txt ]] || fail "progress printed when stderr is not a terminal: $(cat "$tmp/err.txt")"

# 2. On a terminal: a progress line for sim and run; none with --json.
tty_run() { timeout 200 script -qec "$(printf '%q ' "$@")" /dev/null; }
out=$(tty_run "$bin" sim --cores 2 "${long[@]}")
[[ $out == *"sim: forward on 2 cores: simulating, "* ]] || fail "sim on a terminal showed no progress: $out"
[[ $out == *"verdict"*OK* ]] || fail "sim on a terminal printed no summary: $out"
out=$(tty_run "$bin" sim --cores 2 "${long[@]}" --json)
[[ $out != *simulating* ]] || fail "sim --json showed progress: $out"
out=$(tty_run "$bin" run "${burning[@]}" --workers 2)
[[ $out == *"run: forward, stealing, 2 workers: running, "* ]] || fail "run on a terminal showed no progress: $out"
out=$(tty_run "$bin" sim --cores 2 --param hops=100)
[[ $out != *simulating* ]] || fail "a short sim showed progress: $out"

echo "progress_test: $failures failure(s)"
[[ $failures -eq 0 ]]
