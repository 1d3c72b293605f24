#!/usr/bin/env bash
# Packs the built twinsched (and the benchmark programs) with every shared library they load,
# into one folder that runs on another x86-64 Linux machine without SimGrid, Boost or toml++
# installed there: how the simulator was checked against a 16-core machine that had none of
# them (docs/validation/2026-12-04-16-cores).
#
#   scripts/bundle.sh [-b BUILD_DIR] OUT_DIR
#   OUT_DIR/run twinsched calibrate -o machine.toml      # on the other machine
#   OUT_DIR/run twinsched-bench --workloads pi
#
# The programs are stripped of debug information (113 MB -> 4 MB for twinsched). The C
# library stays the target's own when it is as new as this one (glibc is backward
# compatible); where it is older, `run` starts the program with the carried loader and C
# library instead. The stock scenarios and machine models go along in share/twinsched, where
# an installed twinsched has them, so names (`twinsched sim pingpong --machine xeon-2s-32c`)
# work from any folder.
set -euo pipefail

build=build
while getopts "b:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    h) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "usage: $0 [-b BUILD_DIR] OUT_DIR" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-b BUILD_DIR] OUT_DIR" >&2; exit 2; }
out=$1

# The whole command line goes as bin/twinsched: twinsched-full serves `run` too, and the build's small
# `twinsched` would look for it beside the carried loader when started through it.
programs=("$build/cli/twinsched-full")
for p in "$build/bench/twinsched-bench" "$build/bench/twinsched-trace-bench"; do
  [ -x "$p" ] && programs+=("$p")
done
[ -x "${programs[0]}" ] || { echo "$0: ${programs[0]} not built (scripts/build.sh)" >&2; exit 1; }

mkdir -p "$out/bin" "$out/lib" "$out/glibc"
for p in "${programs[@]}"; do
  name=$(basename "$p")
  objcopy --strip-debug "$p" "$out/bin/${name%-full}"
  ldd "$p" | awk '/=> \//{print $3}' | while read -r lib; do
    case $(basename "$lib") in
      libc.so.*|libm.so.*) cp -L "$lib" "$out/glibc/" ;;
      *) cp -L "$lib" "$out/lib/" ;;
    esac
  done
done
cp -L "$(ldd "${programs[0]}" | awk '/ld-linux/{print $1}')" "$out/glibc/"
# twinsched finds them from its own executable, ../share/twinsched; started through the
# carried loader its executable is glibc/ld-linux-*, which lies beside bin/ too.
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out/share/twinsched/machines" "$out/share/twinsched/scenarios/sweeps"
cp "$src"/models/machines/*.toml "$out/share/twinsched/machines/"
cp "$src"/scenarios/*.toml "$out/share/twinsched/scenarios/"
cp "$src"/scenarios/sweeps/*.toml "$out/share/twinsched/scenarios/sweeps/"

cat > "$out/run" <<'RUN'
#!/usr/bin/env bash
# run PROGRAM [ARGS...]: one of the bundled programs, with the bundled libraries.
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...] (programs: $(ls "$here/bin" | tr '\n' ' '))" >&2; exit 2; }
prog=$here/bin/$1
shift
[ -x "$prog" ] || { echo "$0: no program $prog" >&2; exit 2; }
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if [ -z "${TWINSCHED_BUNDLE_LOADER:-}" ] && "$prog" --help >/dev/null 2>&1; then
  exec "$prog" "$@"
fi
# this machine's C library is older than the one the programs were built against (or
# TWINSCHED_BUNDLE_LOADER is set: the tests take this path on purpose)
exec "$here"/glibc/ld-linux-*.so.* --library-path "$here/lib:$here/glibc" "$prog" "$@"
RUN
chmod +x "$out/run"
echo "bundled into $out ($(du -sh "$out" | cut -f1)): $(ls "$out/bin" | tr '\n' ' ')"
