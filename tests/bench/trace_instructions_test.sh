#!/usr/bin/env bash
# bench/trace_instructions.sh on a small forward: three levels counted, tracing adds instructions,
# full more than decisions; a bad TWINSCHED_TRACE_STAMP_NS is refused in one line.
# Usage: trace_instructions_test.sh BUILD_DIR
source "$(dirname "$0")/../cli/lib.sh"
set -e
build=${1:?usage: trace_instructions_test.sh BUILD_DIR}
out=$("$src/bench/trace_instructions.sh" -n 100 -b "$build")
echo "$out"
off=$(echo "$out" | awk '$1 == "off" {print $2}')
dec=$(echo "$out" | awk '$1 == "decisions" {print $2}')
full=$(echo "$out" | awk '$1 == "full" {print $2}')
[ -n "$off" ] && [ -n "$dec" ] && [ -n "$full" ] || die "expected a line per level"
echo "$out" | grep -q "20200 messages" || die "expected 200 x 100 + 200 messages"
awk -v o="$off" -v d="$dec" -v f="$full" 'BEGIN {exit !(o > 50 && d > o && f > d)}' ||
  die "expected off > 50 and off < decisions < full, got $off, $dec, $full"
"$src/bench/trace_instructions.sh" -h | grep -q "Instructions per message" || die "-h prints the help"
for bad in 2us -5 0; do
  set +e
  msg=$(TWINSCHED_TRACE_STAMP_NS=$bad "$build/cli/twinsched" run "$src/scenarios/forward.toml" --param hops=10 \
    --trace-level decisions --trace "$tmp/stamp.tst" 2>&1 >/dev/null)
  rc=$?
  set -e
  [ $rc -ne 0 ] || die "TWINSCHED_TRACE_STAMP_NS=$bad must fail the run"
  echo "$msg" | grep -qF "TWINSCHED_TRACE_STAMP_NS must be a positive number of nanoseconds, not '$bad'" ||
    die "message: $msg"
done
echo "ok"
