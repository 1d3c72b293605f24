#!/usr/bin/env bash
# Installs the Debian packages twinsched builds and runs with; `scripts/setup.sh --test` adds
# those only the test suite needs (scripts/test.sh). Idempotent and silent when all are present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libsimgrid-dev libboost-graph-dev libcli11-dev
      doctest-dev libtomlplusplus-dev nlohmann-json3-dev  # doctest: CMakeLists.txt finds it whatever is built
      help2man)                   # the man page, from the command's own --help (cmake/cli_docs.sh)
test_pkgs=(python3                # the shell tests read the commands' --json output with it
      clang libclang-rt-dev llvm  # tests/fuzz/run.sh: clang, libFuzzer + sanitizer runtimes, llvm-symbolizer
      lld                         # the test builds link with it (CMakeLists.txt): far faster than ld.bfd
      chromium                    # tests/cli/report_test.sh opens the HTML reports headless
      patch                       # tests/mutants/run.sh applies the planted bugs
      valgrind                    # bench/trace_instructions.sh (a test): instructions per traced message
      slurm-wlm munge)            # tests/slurm/slurm_sweep_test.sh: a real one-node Slurm for sweep --slurm
case "${1:-}" in
  "") ;;
  --test) pkgs+=("${test_pkgs[@]}") ;;
  *) echo "usage: scripts/setup.sh [--test]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}" >&2
sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
