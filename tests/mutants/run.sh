#!/usr/bin/env bash
# Planted bugs: builds the twinsched command with each mutant patch applied to a copy of models/,
# and checks that `twinsched explore` finds and shrinks it.
#
# Usage: tests/mutants/run.sh [MUTANT_NUMBER ...]     (default: every mutant, then the clean tree)
# Each mutant is a realistic single mistake in the real policy code (the product code has no
# bug switches). For each, explore runs its scenario below with --shrink and must fail
# within RUNS (1000) schedule seeds; the unpatched command must pass the same searches. Prints a
# table: mutant, strategy, runs to the first failure, wall time, preemptions before and after
# shrinking, the invariant. Exit 1 if a mutant survives or the clean tree fails.
# The mutant command is target twinsched_mutant of the plain build $BUILD_DIR (default build/,
# configured with -DBUILD_TESTING=ON): only the files that read what the patch changes are compiled
# again (cmake/policy_registry.cmake). The patched copy lives in $MUTANTS_DIR (default build-mutants/).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/mutants"
work=${MUTANTS_DIR:-$top/build-mutants}
runs=${RUNS:-1000}
jobs=${JOBS:-$(nproc)}
build=$(realpath -m "${BUILD_DIR:-$top/build}")
overlay="$work/overlay"
[ -f "$build/CMakeCache.txt" ] || { echo "mutants: no build in $build; build first: scripts/build.sh -DBUILD_TESTING=ON" >&2; exit 2; }

# number | patch | explore arguments (scenario and overrides)
mutants=(
  "1|1-parking-count-after-flag|$top/scenarios/pingpong.toml --policy sharing --idle park --cores 3 --param pairs=3 --param bounces=2000 --burst 16 --p 0.0002"
  "2|2-worker-parks-without-recheck|$top/scenarios/pingpong.toml --policy distribution --idle park --cores 3 --param pairs=3 --param bounces=500 --p 0.0005"
  "3|3-mailbox-schedule-by-load-then-store|$top/scenarios/forward.toml --policy stealing --idle park --cores 3 --param actors=16 --param tokens=16 --param hops=200 --p 0.002"
  "4|4-deque-last-element-without-cas|$top/scenarios/forward.toml --policy stealing --idle park --cores 3 --param actors=16 --param tokens=16 --param hops=200 --p 0.002"
  "5|5-donation-takes-before-claiming|$top/scenarios/pool.toml --policy donation --idle park --cores 3 --param bursts=2 --param burst_size=100 --p 0.0005"
  "6|6-adaptive-migrates-the-running-actor|$here/adaptive.toml --cores 3 --p 0.0005"
  "7|7-sharing-hands-off-without-waking|$top/scenarios/pingpong.toml --policy sharing --idle park --cores 3 --param pairs=3 --param bounces=2000 --p 0.0002"
  "8|8-worker-idles-holding-an-actor|$top/scenarios/forward.toml --policy stealing --idle park --cores 3 --param actors=16 --param tokens=4 --param hops=200 --p 0.002"
  "9|9-mailbox-owner-push-passes-shared-mail|$top/scenarios/forward.toml --policy stealing --idle park --cores 3 --param actors=16 --param tokens=16 --param hops=200 --p 0.002"
)
want=("$@")
selected() { [ ${#want[@]} -eq 0 ] && return 0; for w in "${want[@]}"; do [ "$w" = "$1" ] && return 0; done; return 1; }

mkdir -p "$work"
# the build forgets the overlay when the script ends, so a later configure defines no mutant
trap 'cmake -S "$top" -B "$build" -UTWINSCHED_MUTANT_OVERLAY >/dev/null' EXIT
# patch_copy PATCH: $overlay/models/ is models/ with PATCH applied
patch_copy() {
  rm -rf "$overlay" && mkdir -p "$overlay" && cp -r "$top/models" "$overlay/models" &&
    (cd "$overlay" && patch -s -p1 <"$here/$1.patch")
}
# build_it TARGET: configure with the overlay and build TARGET (twinsched_mutant, or the clean twinsched)
build_it() {
  cmake -S "$top" -B "$build" -DTWINSCHED_MUTANT_OVERLAY="$overlay" >/dev/null &&
    cmake --build "$build" -j "$jobs" --target "$1" >/dev/null
}
command="$build/tests/twinsched_mutant"
# explore ARGS... -> the summary line fields, from explore's own output
explore() { "$command" explore "$@" --runs "$runs" --jobs "$jobs" --shrink --out "$work/out" 2>/dev/null; }

rows=()
failed=0
for m in "${mutants[@]}"; do
  IFS='|' read -r num name args <<<"$m"
  selected "$num" || continue
  echo "mutants: $name" >&2
  patch_copy "$name" || { echo "FAIL: $name does not apply"; failed=1; continue; }
  if ! build_it twinsched_mutant; then
    echo "FAIL: $name does not build"; failed=1
  else
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    out=$(explore $args)
    t1=$(date +%s.%N)
    seed=$(sed -n 's/^explore: FAILED at schedule seed \([0-9]*\) (run \([0-9]*\) of.*/\2/p' <<<"$out")
    kind=$(sed -n 's/^  invariant   //p' <<<"$out")
    before=$(sed -n 's/^  schedule    .*: \([0-9]*\) preemptions$/\1/p' <<<"$out")
    after=$(sed -n 's/^shrunk: [0-9]* -> \([0-9]*\) preemptions.*/\1/p' <<<"$out")
    if grep -q '^explore: the scenario fails with no preemption at all' <<<"$out"; then  # found by the unperturbed run
      seed="0 (unperturbed)"; before=0; after=0
      kind=$(sed -n 's/^explore: the scenario fails with no preemption at all (\([a-z-]*\)).*/\1/p' <<<"$out")
    fi
    if [ -z "$seed" ]; then
      echo "FAIL: $name survived $runs schedules"; failed=1
      rows+=("$name|survived|-|$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", b-a}') s|-|-|-")
    else
      rows+=("$name|random|$seed|$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b-a}') s|$before|$after|$kind")
      echo "$name $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.0f", b-a}')" >>"$work/explore-times.txt"  # for real_backend.sh
    fi
    grep -E '^explore: (FAILED|the scenario fails)|^  (invariant|reproduce|worker [0-9]+ before)|^shrunk:' <<<"$out" | cut -c1-400 | sed 's/^/    /' >&2
  fi
done

if [ ${#want[@]} -eq 0 ]; then  # the clean tree passes the same searches
  echo "mutants: the unpatched tree" >&2
  command="$build/cli/twinsched"
  build_it twinsched || { echo "FAIL: the clean tree does not build"; exit 1; }
  for m in "${mutants[@]}"; do
    IFS='|' read -r num name args <<<"$m"
    # shellcheck disable=SC2086
    out=$(explore $args)
    if grep -q "no invariant broken" <<<"$out"; then rows+=("clean tree, scenario of $num|random|none in $runs|-|-|-|-")
    else echo "FAIL: the clean tree fails the search of $name:"; echo "$out" | head -5; failed=1; fi
  done
fi

printf '\n| mutant | strategy | runs to first failure | wall time | preemptions | after shrinking | invariant |\n|---|---|---|---|---|---|---|\n'
for r in "${rows[@]}"; do IFS='|' read -r a b c d e f g <<<"$r"; printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$a" "$b" "$c" "$d" "$e" "$f" "$g"; done
[ $failed -eq 0 ] && echo "mutants: every planted bug found" || echo "mutants: FAILED"
exit $failed
