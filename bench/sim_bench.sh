#!/usr/bin/env bash
# Simulator speed: simulated messages per real second, for one build or several compared in one run.
#
# usage: bench/sim_bench.sh [TWINSCHED...]   (default: build/cli/twinsched; any binaries with `sim`)
#   RUNS=5 launches of each case per binary, alternated (binary after binary, then again), so a
#   change in the host's state falls on all of them alike. Prints, per case and binary, the
#   median simulated msgs per real second (min-max) and the run's event hash: every binary
#   must give the same hash unless it changed the model.
# Cases: forward (1000 actors, 200 tokens, 10000 hops: 2M messages) with stealing on 4 and 64
# modeled cores (every worker busy: one simcall per quantum per worker); the same with sharing
# on 4 cores (a lock per push); pingpong on 4 cores (1M messages, one busy worker: the others
# wait, and most yields need no simcall); open-light on 4 cores (10% load: a timer service
# delivers the arrivals). Below 400k simulated msgs/s on forward is a defect.
#   HOPS=100000 makes forward's stealing cases 20M messages; CASES=a,b runs only the cases named.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 0 ] && set -- build/cli/twinsched
runs=${RUNS:-5}
sc=$here/scenarios
fw="$sc/forward.toml --param actors=1000 --param tokens=200 --param hops=${HOPS:-10000}"
cases=("forward-stealing-4c|$fw --cores 4 --policy stealing"
       "forward-stealing-64c|$fw --cores 64 --policy stealing"
       "forward-sharing-4c|$sc/forward.toml --param actors=1000 --param tokens=200 --param hops=2000 --cores 4 --policy sharing"
       "pingpong-4c|$sc/pingpong.toml --cores 4"
       "open-light-4c|$sc/open-light.toml --cores 4")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for c in "${cases[@]}"; do
  name=${c%%|*}
  [ -z "${CASES:-}" ] || [[ ",$CASES," == *",$name,"* ]] || continue
  for ((r = 0; r < runs; r++)); do
    for ((b = 1; b <= $#; b++)); do
      # written to a file, read after: no reader takes a CPU while a measured run runs
      ${!b} sim ${c#*|} --json > "$out/$name.$b.$r.json" 2> "$out/err" || { cat "$out/err" >&2; exit 1; }
    done
  done
done
python3 - "$out" "$runs" "$@" <<'EOF'
import json, statistics, sys
out, runs, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
names = []
import glob, os
for f in sorted(glob.glob(out + "/*.json")):
    n = os.path.basename(f).split(".")[0]
    if n not in names: names.append(n)
print("%-20s %-40s %22s  %s" % ("case", "binary", "M sim msgs/real s", "event hash"))
for n in names:
    for b, path in enumerate(bins, 1):
        rates, hashes, ok = [], set(), True
        for r in range(runs):
            j = json.load(open("%s/%s.%d.%d.json" % (out, n, b, r)))
            rates.append(j["sim"]["sim_msgs_per_real_s"] / 1e6)
            hashes.add(j["sim"]["event_hash"])
            ok = ok and j["ok"]
        print("%-20s %-40s %6.2f (%5.2f-%5.2f)  %s%s" % (n, path[-40:], statistics.median(rates), min(rates), max(rates),
              ",".join(sorted(hashes)), "" if ok else "  FAIL"))
EOF
