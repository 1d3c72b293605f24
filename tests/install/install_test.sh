#!/usr/bin/env bash
# The installed package: `cmake --install` of a built tree into a fresh prefix, then an out-of-tree
# project (tests/install/consumer) found through find_package(twinsched), built, and run.
set -euo pipefail
build=${1:?usage: install_test.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/twinsched include/twinsched/runtime/run_threads.hpp include/twinsched/sim/run_sim.hpp \
         include/twinsched/models/platform.hpp lib/cmake/twinsched/twinschedConfig.cmake; do
  [[ -e $tmp/prefix/$f ]] || { echo "FAIL: the install lacks $f"; exit 1; }
done
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$here/consumer" -B "$tmp/consumer" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer" >/dev/null
# The consumer must not have reached into the source tree: its include paths are the prefix's.
if grep -rq -- "-I$(cd "$here/../.." && pwd)" "$tmp/consumer" 2>/dev/null; then
  echo "FAIL: the consumer compiled against the source tree, not the install"; exit 1
fi
timeout 120 "$tmp/consumer/consumer"
"$tmp/prefix/bin/twinsched" --version
echo "install_test: OK"
