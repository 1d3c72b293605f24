#!/usr/bin/env bash
# Sweep's speed: wall seconds of scenarios/sweeps/scaling.toml (200 simulated cells) for one or
# more builds, with 1 and with 2 jobs.
#
# usage: bench/sweep_bench.sh [LAUNCHES] TWINSCHED [TWINSCHED...]
# The binaries are alternated launch by launch so that a noisy spell hits them alike; prints per
# binary and job count the median wall time of the launches with their min-max, as the sweep's
# closing line reports it, and whether every build's rows carry the same event hashes.
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
bench_start "bench/sweep_bench.sh [LAUNCHES] TWINSCHED [TWINSCHED...]" "$@"
set -- "${bins[@]}"
for ((l = 0; l < launches; l++)); do
  b=0
  for bin in "$@"; do
    for jobs in 1 2; do
      # output to a file, read after the run: no reader competes for a CPU while it runs
      "$bin" sweep "$here/scenarios/sweeps/scaling.toml" --jobs "$jobs" --overwrite -o "$out/r$b" >"$out/run.txt" 2>&1
      sed -n 's/.* ran [0-9]* in \([0-9.]*\) s .*/\1/p' "$out/run.txt" >>"$out/$b-$jobs"
    done
    # the cell's event hashes, in cell order (rows are written in the order cells end)
    python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; print("\n".join(r["event_hash"] for r in sorted(rows, key=lambda r: r["cell"])))' \
      "$out/r$b.jsonl" >"$out/hashes-$b"
    b=$((b + 1))
  done
done
print_medians jobs 'wall s' %.2f 1 2
same=yes
for ((b = 1; b < $#; b++)); do cmp -s "$out/hashes-0" "$out/hashes-$b" || same=no; done
echo "same event hashes in every build: $same"
