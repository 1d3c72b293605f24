# shellcheck shell=bash disable=SC2034  # the variables are the caller's
# What bench/explore_bench.sh and bench/sweep_bench.sh share; sourced, not run.

# bench_start USAGE [LAUNCHES] BINARY...: sets `launches` (default 5), `bins` (the binaries),
# `here` (the source tree) and `out` (a scratch folder, removed at exit); exits 2 with USAGE
# without a binary.
bench_start() {
  local usage=$1
  shift
  launches=${1:-5}
  [ $# -gt 0 ] && shift
  [ $# -ge 1 ] || { echo "usage: $usage" >&2; exit 2; }
  bins=("$@")
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
}

# median_range FILE FORMAT: "median (min-max)" of the numbers in FILE, one a line, each printed
# with the printf FORMAT; "no result" when FILE has none.
median_range() {
  sort -g "$1" | awk -v f="$2" '{v[NR]=$1} END {
    if (NR == 0) { print "no result"; exit }
    m = NR % 2 ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2
    printf f " (" f "-" f ")\n", m, v[1], v[NR] }'
}

# print_medians COLUMN UNIT FORMAT KEY...: a header, then a line per binary and KEY: the binary,
# the key and median_range of "$out/INDEX-KEY" (INDEX: the binary's place in `bins`, from 0).
print_medians() {
  local column=$1 unit=$2 fmt=$3
  shift 3
  printf '%-40s %-8s %s\n' binary "$column" "$unit median (min-max)"
  local b=0 bin key
  for bin in "${bins[@]}"; do
    for key in "$@"; do printf '%-40s %-8s %s\n' "$bin" "$key" "$(median_range "$out/$b-$key" "$fmt")"; done
    b=$((b + 1))
  done
}
