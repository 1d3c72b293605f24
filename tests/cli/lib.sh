# What every shell test starts with, sourced first: strict mode, a temporary folder, and the checks' bookkeeping.
#
#   source "$(dirname "$0")/../cli/lib.sh"   (from tests/cli/: "$(dirname "$0")/lib.sh")
#
# gives
#   src                 the source tree's root
#   tmp                 a fresh folder, removed when the test exits
#   need_bin ARG USAGE  sets $bin to ARG, the program under test, as an absolute path (a
#                       test may cd); no ARG: "usage: USAGE" on stderr and exit 2
#   ok MSG              "ok: MSG"
#   fail MSG            "FAIL: MSG", counted in $failures; the test goes on to its next check
#   die MSG             "FAIL: MSG" on stderr, and the test ends here with exit 1
#   finish WHAT         "all WHAT checks passed", or "N WHAT check(s) failed" and exit 1: the
#                       last line of a test that counts its failures
# A test that must stop at its first failed command adds `set -e` after sourcing.
set -uo pipefail

src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

need_bin() {
  [[ -n ${1:-} ]] || { echo "usage: $2" >&2; exit 2; }
  bin=$(realpath "$1")
}

ok() { echo "ok: $*"; }
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
die() {
  echo "FAIL: $*" >&2
  exit 1
}

finish() {
  if [[ $failures -eq 0 ]]; then
    echo "all $1 checks passed"
  else
    echo "$failures $1 check(s) failed"
    exit 1
  fi
}
