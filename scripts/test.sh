#!/usr/bin/env bash
# Sets up, builds with warnings as errors, and runs every test: the concurrency tests under
# ThreadSanitizer too, planted bugs found by explore, the fuzzed readers, and each other test
# once under ASan + UBSan (those of outside programs in the plain build). Each build has its own
# folder. `scripts/test.sh --fast` runs every test in the plain build and skips the other stages.
# The builds keep line tables only (-g1; sanitizer builds -O1): reports still name file and line,
# and the builds, most of the script's time, are far quicker than with full debugger information.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=0
[ "${1:-}" = "--fast" ] && fast=1
jobs=${JOBS:-$(nproc)}
export CTEST_OUTPUT_ON_FAILURE=1

# each stage's heading says how long the script has run, so a slow stage shows in CI's log
step() { printf '\n=== %s (at %dm%02ds)\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

scripts/setup.sh --test  # what the tests need besides the build's packages (scripts/build.sh installs those)
# Each test runs once, in the strictest build it can run in (tests/CMakeLists.txt): --fast builds
# and runs them all here; otherwise this build makes only the programs its own tests run (target
# plain_stage) and runs those of outside programs (label tools) and those only it has (label
# plain), and the ASan + UBSan build all the others.
if [ $fast -eq 1 ]; then
  step "build (warnings as errors)"
  BUILD_DIR=build-ci scripts/build.sh -DTWINSCHED_WERROR=ON -DBUILD_TESTING=ON
  step "all tests"
  ctest --test-dir build-ci -j "$jobs" --timeout 600
else
  step "build of the programs the plain build's tests run (warnings as errors)"
  BUILD_DIR=build-ci TARGETS=plain_stage scripts/build.sh -DTWINSCHED_WERROR=ON -DBUILD_TESTING=ON
  step "tests of outside programs and of the plain build only (labels tools, plain)"
  ctest --test-dir build-ci -j "$jobs" --timeout 600 -L 'tools|plain'
fi

if [ $fast -eq 0 ]; then
  step "ThreadSanitizer build: concurrency tests"
  BUILD_DIR=build-tsan TARGETS="concurrency_tests" scripts/build.sh -DTWINSCHED_WERROR=ON -DBUILD_TESTING=ON -DTWINSCHED_SANITIZE=thread
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" ctest --test-dir build-tsan -L concurrency --timeout 900

  step "planted bug: explore finds and shrinks one (tests/mutants/run.sh 1; all nine: tests/mutants/run.sh)"
  BUILD_DIR=build-ci RUNS=1000 tests/mutants/run.sh 1

  step "fuzzed readers: each libFuzzer harness for a short run, and every saved regression (tests/fuzz/run.sh)"
  tests/fuzz/run.sh

  step "AddressSanitizer + UndefinedBehaviorSanitizer build: every other test (all but labels tools, plain)"
  BUILD_DIR=build-asan scripts/build.sh -DTWINSCHED_WERROR=ON -DBUILD_TESTING=ON -DTWINSCHED_SANITIZE=address -DTWINSCHED_BENCH=OFF
  ASAN_OPTIONS="detect_leaks=1" UBSAN_OPTIONS="print_stacktrace=1" ctest --test-dir build-asan -j "$jobs" --timeout 900 -LE 'tools|plain'
fi
step "all test stages passed"
