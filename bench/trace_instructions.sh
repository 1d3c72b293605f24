#!/usr/bin/env bash
# Instructions per message that tracing adds, counted by callgrind: repeatable where timings are not.
#
# Usage: bench/trace_instructions.sh [-n HOPS] [-b BUILD_DIR]
#   Runs `twinsched run` on forward (1000 actors, 200 tokens, HOPS hops each: 200 x HOPS
#   messages; default 2000) on 1 worker under valgrind's callgrind, untraced, then at the
#   decisions and full levels, and prints the instructions the worker thread executed per
#   message (the worker loop and everything it calls, inclusive), and what each level adds.
#
# Why: on a shared machine the trace bench's overheads swing by +-5 points from round to
# round (docs/PERFORMANCE.md), so a change of a few instructions per event cannot be seen
# in them; the instruction count repeats to within about 1% (what varies is the idle loop at
# the run's end), so a change of a few instructions shows in it. It is not time: a traced
# instruction costs less than an untraced one on average (they overlap the run's stalls),
# and a cache-line transfer between cores costs none. Under valgrind a run is ~50x slower,
# so the recorder's clock-read interval is set 50x larger (TWINSCHED_TRACE_STAMP_NS) to keep
# the stamped events as rare as in a real run.
set -euo pipefail
cd "$(dirname "$0")/.."
hops=2000 build=${BUILD_DIR:-build}
while getopts "n:b:h" o; do
  case $o in
    n) hops=$OPTARG ;;
    b) build=$OPTARG ;;
    h) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: bench/trace_instructions.sh [-n HOPS] [-b BUILD_DIR] (-h: help)" >&2; exit 2 ;;
  esac
done
bin=$build/cli/twinsched
[ -x "$bin" ] || { echo "trace_instructions: no $bin; build first (scripts/build.sh)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "trace_instructions: needs valgrind (scripts/setup.sh --test installs it)" >&2; exit 2; }
messages=$((200 * hops + 200))  # every hop, plus each token's arrival at its first actor
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A per
for level in off decisions full; do
  TWINSCHED_TRACE_STAMP_NS=100000 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$level" \
    "$bin" run scenarios/forward.toml --workers 1 --param hops="$hops" --trace-level $level \
    $([ $level = off ] || echo --trace "$tmp/t.tst") >"$tmp/out.$level" 2>&1 || { cat "$tmp/out.$level" >&2; exit 1; }
  grep -q "verdict *OK" "$tmp/out.$level" || { cat "$tmp/out.$level" >&2; exit 1; }
  # the worker threads' entry: worker<...>::loop(), inclusive (one line per policy instance)
  ir=$(callgrind_annotate --inclusive=yes "$tmp/cg.$level" 2>/dev/null |
       awk '/models\/worker\.hpp:twinsched::worker<.*>::loop\(\) \[/ {gsub(/,/, "", $1); s += $1} END {print s + 0}')
  [ "$ir" -gt 0 ] || { echo "trace_instructions: found no worker loop in callgrind's output ($level)" >&2; exit 1; }
  per[$level]=$(awk -v i="$ir" -v n="$messages" 'BEGIN {printf "%.1f", i / n}')
done
echo "forward, 1 worker, $messages messages (callgrind): instructions per message in the worker thread"
for level in off decisions full; do
  printf "  %-10s %7s" "$level" "${per[$level]}"
  [ $level = off ] && echo || awk -v a="${per[$level]}" -v b="${per[off]}" 'BEGIN {printf "   +%.1f for tracing (+%.0f%%)\n", a - b, 100 * (a - b) / b}'
done
