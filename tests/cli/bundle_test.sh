#!/usr/bin/env bash
# scripts/bundle.sh: the packed twinsched runs from its folder with the libraries it carries,
# on this machine's C library and on the carried one, and gives the same simulation.
# usage: bundle_test.sh BUILD_DIR   (run from the repository root)
source "$(dirname "$0")/lib.sh"
set -e
build=${1:?usage: bundle_test.sh BUILD_DIR}
scripts/bundle.sh -b "$build" "$tmp/b" > "$tmp/bundle.out"
grep -q "bundled into" "$tmp/bundle.out"

# SimGrid comes from the bundle, not from this machine's packages
LD_LIBRARY_PATH=$tmp/b/lib ldd "$tmp/b/bin/twinsched" > "$tmp/ldd.out"
grep "libsimgrid" "$tmp/ldd.out" | grep -q "$tmp/b/lib/" || die "libsimgrid not taken from the bundle: $(cat "$tmp/ldd.out")"
if grep -q "not found" "$tmp/ldd.out"; then die "a library is missing from the bundle: $(cat "$tmp/ldd.out")"; fi

"$tmp/b/run" twinsched --version | grep -q "^twinsched "
# by name, from a folder with no scenarios or machines: the bundle's own share/twinsched, both ways
sim=(twinsched sim pingpong --machine xeon-2s-32c --param bounces=2000 --cores 2 --json)
(cd "$tmp" && "$tmp/b/run" "${sim[@]}") > "$tmp/own.json"
(cd "$tmp" && TWINSCHED_BUNDLE_LOADER=1 "$tmp/b/run" "${sim[@]}") > "$tmp/carried.json"
python3 - "$tmp/own.json" "$tmp/carried.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["ok"] and b["ok"], (a["ok"], b["ok"])
for key in ("checksum", "messages", "wall_s", "parks", "wakeups"):
    assert a[key] == b[key], f"{key}: {a[key]} with this machine's C library, {b[key]} with the carried one"
PY

# a program that is not in the bundle: exit 2 with the list
if "$tmp/b/run" no-such-program 2> "$tmp/err"; then die "a missing program ran"; fi
grep -q "no program" "$tmp/err"
echo "bundle ok: $(du -sh "$tmp/b" | cut -f1)"
