#!/usr/bin/env bash
# Sets up, builds the twinsched command alone (not the tests), and runs it on the embedded default scenario (scenarios/forward.toml) on real cores.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
BUILD_DIR=$build TARGETS=twinsched scripts/build.sh
exec "$build/cli/twinsched" run "$@"
