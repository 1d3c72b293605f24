#!/usr/bin/env bash
# Fuzzes the readers of user-supplied files with libFuzzer under ASan + UBSan: the scenario loader,
# the machine model parser and the trace reader (tests/fuzz/fuzz_*.cpp).
#
#   tests/fuzz/run.sh [EXECUTIONS]     default 20000 executions per harness (CI: about a minute after the build)
#
# Installs missing packages (scripts/setup.sh --test), configures and builds build-fuzz with clang
# (-DTWINSCHED_FUZZ=ON), then for each harness: replays every input in tests/fuzz/regressions/<harness>/,
# and fuzzes EXECUTIONS inputs starting from a copy of tests/fuzz/corpus/<harness>/. Exit 1 on any
# crash, leak, timeout (-timeout=10: a hang is a finding) or sanitizer report; the failing input is
# kept in build-fuzz/fuzz-out/<harness>/ (save it under tests/fuzz/regressions/<harness>/ once fixed).
# Environment: JOBS (build jobs, default: all cores), BUILD_DIR (default build-fuzz),
# TWINSCHED_FUZZ_STRICT=1 (an exception type the reader does not document is a finding too).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-20000}
if ! [[ "$runs" =~ ^[0-9]+$ ]] || [ "$runs" -eq 0 ]; then
  echo "usage: tests/fuzz/run.sh [EXECUTIONS]  (a positive number of executions per harness; default 20000)" >&2
  exit 2
fi
build=${BUILD_DIR:-build-fuzz}
jobs=${JOBS:-$(nproc)}

scripts/setup.sh --test  # clang, libFuzzer and the sanitizer runtimes
if [ ! -f "$build/CMakeCache.txt" ]; then
  CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTWINSCHED_FUZZ=ON \
    -DTWINSCHED_BENCH=OFF -DBUILD_TESTING=OFF >/dev/null
fi
nice -n 10 cmake --build "$build" -j "$jobs" --target fuzz_scenario fuzz_machine fuzz_trace

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
out="$build/fuzz-out"
failed=0
printf '\n%-14s %10s %9s %8s %7s %7s  %s\n' harness executions exec/s wall_s cov ft regressions

for h in scenario machine trace; do
  bin="$build/tests/fuzz/fuzz_$h"
  max_len=4096
  [ "$h" = trace ] && max_len=65536
  rm -rf "${out:?}/$h"
  mkdir -p "$out/$h/corpus" "$out/$h/crashes"
  cp tests/fuzz/corpus/"$h"/* "$out/$h/corpus/"
  opts=(-timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -reload=0 -artifact_prefix="$out/$h/crashes/")

  # every saved crash, replayed once: each must now be rejected or accepted cleanly
  regressions=()
  for f in tests/fuzz/regressions/"$h"/*; do [ -f "$f" ] && regressions+=("$f"); done
  if [ ${#regressions[@]} -gt 0 ] && ! "$bin" "${opts[@]}" "${regressions[@]}" >"$out/$h/regressions.log" 2>&1; then
    echo "fuzz_$h: a saved regression fails again:" >&2
    tail -n 60 "$out/$h/regressions.log" >&2
    failed=1
    continue
  fi

  start=$(date +%s%N)
  if ! nice -n 10 "$bin" "${opts[@]}" -runs="$runs" -dict="tests/fuzz/$h.dict" -print_final_stats=1 \
      "$out/$h/corpus" >"$out/$h/fuzz.log" 2>&1; then
    echo "fuzz_$h: FAILED; the input is in $out/$h/crashes/, the log in $out/$h/fuzz.log:" >&2
    tail -n 60 "$out/$h/fuzz.log" >&2
    failed=1
    continue
  fi
  wall=$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.1f", ns / 1e9 }')
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$h/fuzz.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/$h/fuzz.log")
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$h/fuzz.log" | tail -n 1 || true)
  printf '%-14s %10s %9s %8s %7s %7s  %s\n' "fuzz_$h" "$execs" "$rate" "$wall" \
    "$(echo "$cov" | awk '{print $2}')" "$(echo "$cov" | awk '{print $4}')" "${#regressions[@]} replayed"
done

if [ $failed -ne 0 ]; then
  echo "fuzz: FAILED (see above)" >&2
  exit 1
fi
echo "fuzz: all harnesses passed"
