#!/usr/bin/env bash
# Runs Savina benchmarks on both backends and checks each run's verdict (the benchmark's own result
# check and the message checksum): on real cores with the scenario's policy at 1 and 2 workers and
# with every listed policy at 2; in simulation with every listed policy on 2 cores, and with the
# scenario's policy on 1 and 16 cores, each run twice (--check-determinism: same result, same event
# hash).
#
# usage: run_cases.sh TWINSCHED CASES_FILE
# CASES_FILE: one benchmark a line, `SCENARIO | POLICIES | ARGUMENTS`, e.g.
#   savina/count | shared-queue distribution sharing stealing adaptive | --param messages=20000
# POLICIES are those that apply to the benchmark (donation needs groups of equal actors);
# ARGUMENTS shrink it to a test's size. Lines starting with # are comments.
source "$(dirname "$0")/../cli/lib.sh"
need_bin "${1:-}" "run_cases.sh TWINSCHED CASES_FILE"
cases=${2:?usage: run_cases.sh TWINSCHED CASES_FILE}

# check WHAT ARGS...: twinsched ARGS... exits 0 within 120 s and prints every line in $want
check() {
  local what=$1 rc
  shift
  timeout -s KILL 120 "$bin" "$@" >"$tmp/out" 2>&1
  rc=$?
  local missing=""
  for w in "${want[@]}"; do grep -q "^$w" "$tmp/out" || missing+=" '$w'"; done
  if [[ $rc -eq 0 && -z $missing ]]; then
    ok "$what: twinsched $*"
  else
    [[ $rc -eq 137 ]] && what+=" (killed after 120 s: a hang)"
    fail "$what: twinsched $* -> exit $rc, missing$missing; its output:"
    sed 's/^/    /' "$tmp/out" | tail -40
  fi
}

n=0
while IFS='|' read -r scenario policies args; do
  [[ $scenario =~ ^[[:space:]]*(#|$) ]] && continue
  read -r scenario <<<"$scenario"  # trimmed
  n=$((n + 1))
  read -ra extra <<<"$args"
  want=("verdict       OK")
  for w in 1 2; do check "$scenario, threads, $w workers" run "$scenario" "${extra[@]}" --workers "$w"; done
  for p in $policies; do check "$scenario, threads, $p" run "$scenario" "${extra[@]}" --workers 2 --policy "$p"; done
  for p in $policies; do check "$scenario, sim, $p" sim "$scenario" "${extra[@]}" --cores 2 --policy "$p"; done
  want=("verdict       OK" "determinism   OK")
  for c in 1 16; do check "$scenario, sim, $c cores" sim "$scenario" "${extra[@]}" --cores "$c" --check-determinism; done
done <"$cases"
[[ $n -gt 0 ]] || die "no benchmark in $cases"
finish "$n benchmarks'"
