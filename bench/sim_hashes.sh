#!/usr/bin/env bash
# Whether a change to sim/ left every simulation as it was: the event hash, flush count and verdict
# of 214 simulations, for two builds (or more), compared line by line.
#
# usage: bench/sim_hashes.sh OLD_TWINSCHED NEW_TWINSCHED [MORE...]
#   Prints "N simulations, the same in every build" and exits 0, or the lines that differ and
#   exits 1. The builds run side by side, one process each (about 10 minutes on 2 vCPUs).
# The set: the top-level scenarios x 4 policies x 2 and 4 cores, pool with donation, every Savina
# scenario x stealing and sharing on 2 cores, pingpong / open-light / open-medium x the 6 idle
# strategies x 2 policies, the sim_* scenarios, forward on 64 cores, 5 scenarios on 32 cores of
# the two-socket and the measured machine, more workers than cores, fine interleaving, a run
# stopped by its time limit, random and PCT schedules, and the lookahead turned off. A change
# that means to move the model changes these hashes, and says why (README: bit-identical).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/sim_hashes.sh OLD_TWINSCHED NEW_TWINSCHED [MORE...]" >&2; exit 2; }
here=$(cd "$(dirname "$0")/.." && pwd)
sc=$here/scenarios
mach=$here/models/machines
for t in "$@"; do [ -x "$t" ] || { echo "sim_hashes: $t is not an executable" >&2; exit 2; }; done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

one() {  # NAME ARGS...: one line "NAME HASH FLUSHES OK", or "NAME refused" when sim exits non-zero
  local name=$1
  shift
  if "$t" sim "$@" --json >"$out/$b.json" 2>/dev/null || [ -s "$out/$b.json" ]; then
    python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); s=j["sim"]; print(sys.argv[2], s["event_hash"], s["flushes"], j["ok"])' \
      "$out/$b.json" "$name" 2>/dev/null || echo "$name refused"
  else
    echo "$name refused"
  fi
}

all() {
  for f in "$sc"/*.toml; do
    n=$(basename "$f" .toml)
    case $n in sim_*) continue ;; esac
    for p in shared-queue distribution sharing stealing; do
      for c in 2 4; do one "$n-$p-$c" "$f" --policy "$p" --cores "$c"; done
    done
  done
  one pool-donation-4 "$sc/pool.toml" --policy donation --cores 4
  for f in "$sc"/savina/*.toml; do
    n=$(basename "$f" .toml)
    for p in stealing sharing; do one "savina-$n-$p-2" "$f" --policy "$p" --cores 2; done
  done
  for n in pingpong open-light open-medium; do
    for i in busy-spin noop yield sleep backoff park; do
      for p in stealing sharing; do one "$n-$i-$p" "$sc/$n.toml" --idle "$i" --policy "$p" --cores 4; done
    done
  done
  for f in "$sc"/sim_*.toml; do one "$(basename "$f" .toml)" "$f"; done
  one forward-64-stealing "$sc/forward.toml" --cores 64 --policy stealing --param hops=2000
  one forward-64-sharing "$sc/forward.toml" --cores 64 --policy sharing --param hops=500
  for m in xeon-2s-32c this-machine; do
    for n in forward pingpong skewed burst fanout-idle; do
      for p in stealing sharing; do one "$n-$m-$p" "$sc/$n.toml" --machine "$mach/$m.toml" --cores 32 --policy "$p"; done
    done
  done
  one forward-xeon-4 "$sc/forward.toml" --machine "$mach/xeon-2s-32c.toml" --cores 4 --policy stealing
  one forward-xeon-64 "$sc/forward.toml" --machine "$mach/xeon-2s-32c.toml" --cores 64 --policy stealing --param hops=1000
  one count-xeon-32 "$sc/savina/count.toml" --machine "$mach/xeon-2s-32c.toml" --cores 32
  one forward-3-on-2 "$sc/forward.toml" --workers 3 --cores 2
  one forward-fine "$sc/forward.toml" --cores 2 --interleave fine --param hops=200
  one pingpong-fine "$sc/pingpong.toml" --cores 2 --interleave fine
  one sieve-time-limit "$sc/savina/sieve.toml" --cores 2 --time-limit 0.0001
  one forward-random "$sc/forward.toml" --cores 2 --strategy random --schedule 7
  one forward-pct "$sc/forward.toml" --cores 4 --strategy pct --schedule 3 --checks
  one pingpong-no-lookahead "$sc/pingpong.toml" --cores 4 --no-lookahead
}

b=0
for t in "$@"; do
  b=$((b + 1))
  (all >"$out/$b.txt") &
done
wait
status=0
for ((i = 2; i <= $#; i++)); do
  if ! diff "$out/1.txt" "$out/$i.txt" >"$out/diff"; then
    echo "sim_hashes: ${!i} differs from $1:"
    cat "$out/diff"
    status=1
  fi
done
[ $status -eq 0 ] && echo "$(wc -l <"$out/1.txt") simulations, the same in every build ($(grep -c refused "$out/1.txt" || true) refused by both)"
exit $status
