#!/usr/bin/env bash
# The simulator against the real cores of the machine this runs on, as it was checked on 16
# cores (docs/validation/2026-12-04-16-cores): calibrate, then accuracy matrices on 1, a
# quarter of and all the cores, against that calibration. Writes into OUT_DIR the machine
# file, one accuracy JSON per matrix and a log; copy them back and simulate them again with
# any later build: python3 bench/resimulate.py OUT_DIR/acc-*.json
#
#   bench/machine_check.sh [-t "TWINSCHED"] OUT_DIR
#   -t: how to start twinsched (default build/cli/twinsched; a bundle: "BUNDLE/run twinsched")
# Run from the repository root. About 4 minutes on 16 cores.
set -uo pipefail

twinsched=build/cli/twinsched
while getopts "t:h" opt; do
  case $opt in
    t) twinsched=$OPTARG ;;
    h) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-t TWINSCHED] OUT_DIR" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-t TWINSCHED] OUT_DIR" >&2; exit 2; }
out=$1
mkdir -p "$out"
read -r -a ts <<< "$twinsched"
exec > >(tee "$out/log.txt") 2>&1

n=$(nproc)
quarter=$(( n / 4 > 1 ? n / 4 : 1 ))
workers=$(printf '%s\n' 1 "$quarter" "$n" | sort -nu | paste -sd,)
forward_workers=$(for w in 1 2 4 8 16 32 64 128 256; do [ "$w" -le "$n" ] && echo "$w"; done | paste -sd,)
start=$(date +%s)
step() { echo "=== $(( $(date +%s) - start )) s: $*"; }

step "machine"; date -u; nproc; lscpu | grep -E "Model name|Thread|Core|Socket|NUMA node0|L2|L3"
for c in 0 1; do echo "cpu$c siblings: $(cat /sys/devices/system/cpu/cpu$c/topology/thread_siblings_list 2>/dev/null)"; done
"${ts[@]}" --version || exit 1
step "calibrate"
"${ts[@]}" calibrate -o "$out/machine.toml" || exit 1
common=(--machine "$out/machine.toml" --runs 3 --warmup 1 --reruns 1 --json)
matrix() {  # NAME ARGS...: one accuracy matrix into acc-NAME.json
  local name=$1
  shift
  step "accuracy $name: $*"
  "${ts[@]}" accuracy "${common[@]}" "$@" > "$out/acc-$name.json" 2> "$out/acc-$name.err"
  echo "exit $?: $(tail -1 "$out/acc-$name.err")"
}
matrix main --workers "$workers" --scenario pi --scenario skewed --scenario pool --scenario burst --scenario fanout-idle
matrix forward --workers "$forward_workers" --scenario forward --param hops=10000 --policy stealing,shared-queue
matrix pingpong --workers "$workers" --scenario pingpong --param bounces=100000
step "done: python3 bench/resimulate.py $out/acc-*.json"
