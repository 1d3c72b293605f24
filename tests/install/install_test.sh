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
# A sanitizer build's libraries need the consumer built with the same sanitizer.
flags=()
case $(sed -n 's/^TWINSCHED_SANITIZE:STRING=//p' "$build/CMakeCache.txt") in
  address) flags=(-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined) ;;
  thread) flags=(-DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread) ;;
esac
cmake -S "$here/consumer" -B "$tmp/consumer" "${generator[@]}" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_BUILD_TYPE=Release "${flags[@]}" >/dev/null
cmake --build "$tmp/consumer" >/dev/null
# The consumer must not have reached into the source tree: its include paths are the prefix's.
if grep -rq -- "-I$(cd "$here/../.." && pwd)" "$tmp/consumer" 2>/dev/null; then
  echo "FAIL: the consumer compiled against the source tree, not the install"; exit 1
fi
timeout 120 "$tmp/consumer/consumer"
"$tmp/prefix/bin/twinsched" --version
# The installed command finds the installed machine models, from any folder: a model that exists
# only in the prefix (the source tree's folder is searched too, so it proves nothing here).
machines=$tmp/prefix/share/twinsched/machines
[[ -f $machines/xeon-2s-32c.toml ]] || { echo "FAIL: the install lacks the machine models"; exit 1; }
sed 's/^name = .*/name = "installed-only"/' "$machines/xeon-2s-32c.toml" >"$machines/installed-only.toml"
(cd "$tmp" && "$tmp/prefix/bin/twinsched" list machines | grep -q installed-only) ||
  { echo "FAIL: the installed twinsched does not list the installed machine models"; exit 1; }
(cd "$tmp" && "$tmp/prefix/bin/twinsched" sim --machine installed-only --cores 4 --param hops=100 >/dev/null) ||
  { echo "FAIL: the installed twinsched cannot simulate on an installed machine model"; exit 1; }
echo "install_test: OK"
