#!/usr/bin/env bash
# For comparison with explore: runs the real backend's stress and matrix tests against each planted bug for as long as explore needed to find it (at least 30 s), and says which ones they catch.
#
# Usage: [SANITIZE=thread] tests/mutants/real_backend.sh [MUTANT_NUMBER ...]   (after
# tests/mutants/run.sh, which records explore's wall time per mutant in $MUTANTS_DIR/explore-times.txt)
# A test "catches" a mutant when it fails or its deadline reports a hang (support/doctest_main.cpp).
# SANITIZE=thread builds the copy's tests under ThreadSanitizer (its own build folder) and
# runs them with halt_on_error: a data race report then counts as a catch too. The budget
# is the same wall time, so the slower TSan build runs fewer iterations.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/tests/mutants"
work=${MUTANTS_DIR:-$top/build-mutants}
jobs=${JOBS:-$(nproc)}
sanitize=${SANITIZE:-}
tree="$work/tree" build="$work/build-tests${sanitize:+-$sanitize}"
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
want=("$@")
selected() { [ ${#want[@]} -eq 0 ] && return 0; for w in "${want[@]}"; do [[ $1 == "$w"-* ]] && return 0; done; return 1; }
mkdir -p "$tree" "$build"
(cd "$top" && git ls-files -z | grep -zv '^tests/fuzz/corpus' | xargs -0 tar cf - ) | (cd "$tree" && tar xf -)
printf '| mutant | seconds | stress tests | matrix test |\n|---|---|---|---|\n'
for patch in "$here"/*.patch; do
  name=$(basename "$patch" .patch)
  selected "$name" || continue
  budget=$(awk -v n="$name" '$1 == n {print $2}' "$work/explore-times.txt" 2>/dev/null | tail -1)
  budget=$(( ${budget:-30} < 30 ? 30 : ${budget:-30} ))
  (cd "$tree" && patch -s -p1 <"$patch")
  cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON -DTWINSCHED_BENCH=OFF \
    -DTWINSCHED_SANITIZE="$sanitize" >/dev/null &&
    cmake --build "$build" -j "$jobs" --target test_runtime_stress test_runtime_matrix >/dev/null 2>&1
  verdict() {  # BINARY SECONDS -> "caught (run N)" or "missed (N runs)"
    local end=$(( $(date +%s) + $2 )) n=0
    while [ "$(date +%s)" -lt "$end" ]; do
      n=$((n + 1))
      timeout 600 "$1" >/dev/null 2>&1 || { echo "caught (run $n)"; return; }
    done
    echo "missed ($n runs)"
  }
  echo "| $name | $budget | $(verdict "$build/tests/test_runtime_stress" "$budget") | $(verdict "$build/tests/test_runtime_matrix" "$budget") |"
  (cd "$tree" && patch -s -R -p1 <"$patch")
done
