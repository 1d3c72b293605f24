#!/usr/bin/env bash
# scripts/setup.sh installs what building and running need, and `--test` adds what only the test
# suite needs; silent with nothing to do. Run against a fake dpkg-query, apt-get and sudo, so it
# installs nothing and needs no network.
source "$(dirname "$0")/../cli/lib.sh"
root=${1:?usage: setup_test.sh REPO_ROOT}

mkdir "$tmp/bin"
# dpkg-query: every package installed when $tmp/all-installed exists, none otherwise
printf '#!/bin/sh\n[ -e "%s/all-installed" ] && printf "install ok installed"\n' "$tmp" >"$tmp/bin/dpkg-query"
# apt-get: records what `install` was asked for
printf '#!/bin/sh\n[ "$1" = install ] && echo "$@" >>"%s/installed"\nexit 0\n' "$tmp" >"$tmp/bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$tmp/bin/sudo"
chmod +x "$tmp/bin/"*

installs() {  # installs ARGS...: the packages `scripts/setup.sh ARGS...` installs on a bare machine
  rm -f "$tmp/installed"
  PATH="$tmp/bin:$PATH" bash "$root/scripts/setup.sh" "$@" 2>/dev/null || fail "setup.sh $* exited $?"
  echo " $(cat "$tmp/installed" 2>/dev/null) "
}
build=$(installs)
all=$(installs --test)
for p in build-essential cmake ninja-build libsimgrid-dev libcli11-dev doctest-dev; do
  [[ $build == *" $p "* ]] || fail "setup.sh does not install $p, which the build needs"
done
for p in python3 clang llvm chromium patch valgrind slurm-wlm munge; do
  [[ $build != *" $p "* ]] || fail "setup.sh (building and running) installs $p, which only the tests need"
  [[ $all == *" $p "* ]] || fail "setup.sh --test does not install $p"
done
[[ $all == *" cmake "* ]] || fail "setup.sh --test leaves out the build's packages"
[ $failures -eq 0 ] && ok "setup.sh installs the build's packages, --test the tests' as well"

touch "$tmp/all-installed"
rm -f "$tmp/installed"
out=$(PATH="$tmp/bin:$PATH" bash "$root/scripts/setup.sh" --test 2>&1); rc=$?
[[ $rc -eq 0 && -z $out && ! -e $tmp/installed ]] && ok "with everything installed it does nothing and says nothing" ||
  fail "with everything installed: exit $rc, printed '$out'$([ -e "$tmp/installed" ] && echo ', called apt-get install')"

out=$(PATH="$tmp/bin:$PATH" bash "$root/scripts/setup.sh" --tests 2>&1); rc=$?
[[ $rc -eq 2 && $out == "usage: scripts/setup.sh [--test]" ]] && ok "a bad option is exit 2 with the usage" ||
  fail "setup.sh --tests: exit $rc, '$out'"

finish "setup.sh"
