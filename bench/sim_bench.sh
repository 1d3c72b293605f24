#!/usr/bin/env bash
# Simulator speed: simulated messages per real second for forward (1000 actors, 200 tokens, 10000 hops), stealing, coarse.
#
# usage: bench/sim_bench.sh [TWINSCHED]   (default: build/cli/twinsched; any binary with the `sim` command)
# Prints, for 4 and 64 modeled cores: simulated time, real time, simulated msgs per real second
# and simulated/real time. Target >= 1M simulated msgs per real second; below 400k is a defect.
set -euo pipefail
bin=${1:-build/cli/twinsched}
here=$(cd "$(dirname "$0")/.." && pwd)
printf '%6s %12s %10s %16s %14s\n' cores "simulated s" "real s" "sim msgs/real s" "sim/real"
for cores in 4 64; do
  "$bin" sim "$here/scenarios/forward.toml" --cores "$cores" --policy stealing --interleave coarse \
    --param actors=1000 --param tokens=200 --param hops=10000 --json |
    python3 -c 'import json,sys; j=json.load(sys.stdin); s=j["sim"]; ok=j["ok"]
print("%6d %12.6f %10.3f %16.0f %14.5f%s" % (s["cores"], s["simulated_s"], s["real_s"], s["sim_msgs_per_real_s"], s["sim_over_real"], "" if ok else "  FAIL"))'
done
