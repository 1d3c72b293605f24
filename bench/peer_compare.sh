#!/usr/bin/env bash
# The runtime against the Java ForkJoinPool peer (../shared/peers/java), side by side in one run.
#
# Usage: bench/peer_compare.sh [LAUNCHES]        (default 5 launches of each side per row)
#   TWINSCHED=path/to/twinsched   the binary to measure (default build/cli/twinsched)
#   PEER=path/to/peer_java        the peer's launcher (default ../shared/peers/java/peer_java)
#   SCALE=10                      divide every run's length by 10 (a smoke test, not a measurement)
#   ROWS="forward pingpong1"      only these rows (forward, pingpong1, pingpong8)
#
# Each row is measured at 1 and 2 workers. The two sides alternate launch by launch, so a
# noisy neighbour on this shared VM hits both alike. The JVM runs its workload 3 times per
# launch and reports the last (its JIT has compiled the hot path by then: a cold JVM
# understates it by 2x); twinsched has no warm-up to wait for and reports its one run.
# Prints, per row, the median msgs/s of each side with the launches' min-max, the ratio of
# the medians, and the host's state around the row: the line transfer `twinsched calibrate
# --quick` measures before and after the row's launches. On this VM it swings between ~10
# ns (both vCPUs near) and ~65 ns (apart), for hours or for seconds, and every 2-worker row
# with it: a row whose two figures differ a lot ran partly in each state. HOST=0 leaves it out.
# Needs a JDK (javac, java: Debian's openjdk-17-jdk-headless).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
launches=${1:-5}
bin=${TWINSCHED:-$top/build/cli/twinsched}
peer=${PEER:-$top/../shared/peers/java/peer_java}
scale=${SCALE:-1}
host=${HOST:-1}
rows=${ROWS:-forward pingpong1 pingpong8}
[ -x "$bin" ] || { echo "peer_compare: no twinsched at $bin (build it, or set TWINSCHED)" >&2; exit 2; }
[ -x "$peer" ] || { echo "peer_compare: no Java peer at $peer (set PEER)" >&2; exit 2; }
command -v javac >/dev/null || { echo "peer_compare: needs a JDK: apt-get install -y openjdk-17-jdk-headless" >&2; exit 2; }

# row name -> "twinsched arguments|peer arguments|label"
declare -A spec
hops=$((100000 / scale)) msgs=$((10000000 / scale)) per8=$((1000000 / scale))
spec[forward]="$top/scenarios/forward.toml --param actors=1000 --param tokens=200 --param hops=$hops|--workload=forward --actors=1000 --tokens=200 --hops=$hops|forward 1000 actors / 200 tokens / $hops hops"
spec[pingpong1]="$top/scenarios/pingpong.toml --param pairs=1 --param bounces=$msgs|--workload=pingpong --pairs=1 --msgs=$msgs|pingpong, 1 pair x $msgs"
spec[pingpong8]="$top/scenarios/pingpong.toml --param pairs=8 --param bounces=$per8|--workload=pingpong --pairs=8 --msgs=$per8|pingpong, 8 pairs x $per8"

# stats VALUES... -> "median min max" (of numbers in msgs/s)
stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.0f %.0f %.0f", m, v[1], v[NR]}'; }
mps() { awk -v x="$1" 'BEGIN {printf "%.1f", x/1e6}'; }
# The host's line transfer now, in ns (calibrate --quick: ~3 s).
cal=$(mktemp --suffix=.toml)
trap 'rm -f "$cal"' EXIT
line_ns() {
  "$bin" calibrate --quick -o "$cal" 2>&1 | sed -n 's/.*line transfer \([0-9.]*\) ns.*/\1/p'
}

echo "| workload | workers | twinsched (stealing) M msgs/s, median (min-max) | Java ForkJoinPool peer | ratio | line transfer ns, before-after |"
echo "|---|---|---|---|---|---|"
for r in $rows; do
  [ -n "${spec[$r]:-}" ] || { echo "peer_compare: unknown row '$r' (forward, pingpong1, pingpong8)" >&2; exit 2; }
  IFS='|' read -r targs pargs label <<<"${spec[$r]}"
  for w in 1 2; do
    ours=() theirs=()
    [ "$host" = 0 ] || before=$(line_ns)
    for ((k = 1; k <= launches; k++)); do
      echo "peer_compare: $label, $w workers, launch $k/$launches" >&2
      # shellcheck disable=SC2086
      ours+=("$("$bin" run $targs --policy stealing --workers "$w" --json | sed -n 's/^ *"msgs_per_s": \([0-9.e+]*\),*$/\1/p')")
      # shellcheck disable=SC2086
      theirs+=("$("$peer" $pargs --threads="$w" --executor=fjp --runs=3 | sed -n 's/.*msgs_per_sec=\([0-9.]*\).*/\1/p')")
    done
    read -r om omin omax <<<"$(stats "${ours[@]}")"
    read -r jm jmin jmax <<<"$(stats "${theirs[@]}")"
    ratio=$(awk -v a="$om" -v b="$jm" 'BEGIN {printf "%.2f", a/b}')
    echo "| $label | $w | $(mps "$om") ($(mps "$omin")-$(mps "$omax")) | $(mps "$jm") ($(mps "$jmin")-$(mps "$jmax")) | ${ratio}x | $([ "$host" = 0 ] && echo "not measured" || echo "$before-$(line_ns)") |"
  done
done
