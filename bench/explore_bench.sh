#!/usr/bin/env bash
# Explore's speed: schedules per wall second on a small scenario (100 messages) and on mutant 1's
# (pingpong, sharing, park, 3 workers on 3 cores: 12,000 messages), for one or more builds.
#
# usage: bench/explore_bench.sh [LAUNCHES] TWINSCHED [TWINSCHED...]
# Each launch runs `explore` with JOBS jobs (default 1; RUNS schedules, default 1000 and 200), the binaries
# alternated launch by launch so that a noisy spell hits them alike; prints per binary and
# scenario the median runs/s of the launches with their min-max, as explore itself reports it
# (its elapsed time includes the unperturbed run and the setup).
set -euo pipefail
# shellcheck source=bench/lib.sh
source "$(dirname "$0")/lib.sh"
bench_start "bench/explore_bench.sh [LAUNCHES] TWINSCHED [TWINSCHED...]" "$@"
set -- "${bins[@]}"
small="$here/scenarios/pingpong.toml --policy sharing --idle park --cores 3 --param pairs=1 --param bounces=50 --runs ${RUNS_SMALL:-1000}"
mutant1="$here/scenarios/pingpong.toml --policy sharing --idle park --cores 3 --param pairs=3 --param bounces=2000 --burst 16 --p 0.0002 --runs ${RUNS_LARGE:-200}"
for ((l = 0; l < launches; l++)); do
  b=0
  for bin in "$@"; do
    for name in small mutant1; do
      # output to a file, read after the run: no reader competes for a CPU while it runs
      # shellcheck disable=SC2086
      "$bin" explore ${!name} --jobs "${JOBS:-1}" --out "$out/x" >"$out/run.txt" 2>/dev/null || true
      sed -n 's/.*(\([0-9.]*\) runs\/s).*/\1/p' "$out/run.txt" >>"$out/$b-$name"
    done
    b=$((b + 1))
  done
done
print_medians scenario 'runs/s' %.0f small mutant1
