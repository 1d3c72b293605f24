#!/usr/bin/env bash
# Sets up, builds, and runs twinsched on the embedded default scenario (scenarios/forward.toml) on real cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
exec build/cli/twinsched run "$@"
