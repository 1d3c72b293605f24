#!/usr/bin/env bash
# A name on the command line means one stock scenario or machine, whatever folder the command runs
# in; a path means that file, and a folder or a missing file is exit 2 naming what was looked for.
# usage: stock_names_test.sh TWINSCHED
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "stock_names_test.sh TWINSCHED"

# expect_error 'TEXT' ARGS...: exit 2, one line on stderr that holds TEXT, nothing on stdout
expect_error() {
  local want=$1 out err rc
  shift
  out=$(cd "$tmp/work" && timeout 60 "$bin" "$@" 2>"$tmp/err")
  rc=$?
  err=$(cat "$tmp/err")
  if [[ $rc -eq 2 && $err == "twinsched: "*"$want"* && $(wc -l <"$tmp/err") -eq 1 && -z $out ]]; then
    ok "twinsched $* -> exit 2: $err"
  else
    fail "twinsched $* -> exit $rc, stdout '$out', stderr '$err' (want exit 2 and '$want')"
  fi
}

# The working folder holds files named like the stock ones that must not be read: a 3-core
# default machine and a broken pingpong scenario, where the old lookup searched first.
mkdir -p "$tmp/work/models/machines" "$tmp/work/scenarios"
printf 'name = "default"\n[topology]\ncores_per_socket = 3\n' >"$tmp/work/models/machines/default.toml"
cp "$tmp/work/models/machines/default.toml" "$tmp/work/models/machines/xeon-2s-32c.toml"
printf 'not a scenario\n' >"$tmp/work/scenarios/pingpong.toml"
printf 'not a scenario\n' >"$tmp/work/myscenario"

cores() { python3 -c 'import json, sys; print(json.load(sys.stdin)["sim"]["cores"])'; }
got=$(cd "$tmp/work" && timeout 120 "$bin" sim --param hops=100 --json | cores)
[[ $got == 8 ]] && ok "sim on the default machine in a folder with models/machines/default.toml: 8 cores" ||
  fail "sim's default machine in a folder with models/machines/default.toml has '$got' cores, not the stock 8"
got=$(cd "$tmp/work" && timeout 120 "$bin" sim --param hops=100 --machine xeon-2s-32c --json | cores)
[[ $got == 32 ]] && ok "sim --machine xeon-2s-32c there: 32 cores" || fail "sim --machine xeon-2s-32c there: '$got' cores, not 32"
got=$(cd "$tmp/work" && timeout 120 "$bin" sim --param hops=100 --machine models/machines/default.toml --json | cores)
[[ $got == 3 ]] && ok "sim --machine models/machines/default.toml (a path): 3 cores" ||
  fail "sim --machine models/machines/default.toml: '$got' cores, not the file's 3"

expect_error "/tmp: is a folder, not a machine file" sim --machine /tmp
expect_error "models/machines: is a folder, not a machine file" sim --machine models/machines
expect_error "missing.toml: no such machine file" sim --machine missing.toml
expect_error "unknown machine 'nosuch': no " sim --machine nosuch
expect_error "/tmp: is a folder, not a machine file" validate --machine /tmp
expect_error "/tmp: is a folder, not a scenario file" run /tmp
expect_error "missing.toml: cannot open scenario file" run missing.toml
expect_error "nosuch: no such stock scenario: no " sim nosuch
expect_error "for the file in this folder, write ./myscenario" run myscenario

# a stock scenario by name, not the broken scenarios/pingpong.toml of the working folder
out=$(cd "$tmp/work" && timeout 120 "$bin" run pingpong --param bounces=100 2>&1)
[[ $? -eq 0 && $out == *"workload      pingpong"* ]] && ok "run pingpong runs the stock pingpong" ||
  fail "run pingpong in a folder with scenarios/pingpong.toml: $out"
out=$(cd "$tmp/work" && timeout 120 "$bin" sim pingpong --param bounces=100 2>&1)
[[ $? -eq 0 && $out == *"workload      pingpong"* ]] && ok "sim pingpong simulates the stock pingpong" ||
  fail "sim pingpong in a folder with scenarios/pingpong.toml: $out"
out=$(cd "$tmp/work" && "$bin" list scenarios)
[[ $out == "stock scenarios in /"* && $out == *"/pingpong.toml"* && $out != *"does not load"* ]] &&
  ok "list scenarios names the stock folder" || fail "list scenarios in a folder with scenarios/: $out"
# a suite's scenario by SUITE/NAME, unless a file of that path exists here
out=$(cd "$tmp/work" && timeout 120 "$bin" run savina/pingpong --param pings=100 2>&1)
[[ $? -eq 0 && $out == *"workload      savina-pingpong"* ]] && ok "run savina/pingpong runs the stock scenarios/savina/pingpong.toml" ||
  fail "run savina/pingpong: $out"
[[ $(cd "$tmp/work" && "$bin" list scenarios) == *"savina/pingpong "*"/savina/pingpong.toml"* ]] &&
  ok "list scenarios names savina/pingpong" || fail "list scenarios lacks savina/pingpong"
mkdir -p "$tmp/work/savina" && printf 'not a scenario\n' >"$tmp/work/savina/pingpong"
expect_error "savina/pingpong:1:" run savina/pingpong
expect_error "savina/nosuch: no such stock scenario: no " run savina/nosuch
out=$(cd "$tmp/work" && "$bin" list machines)
[[ $out == "stock machines in /"* && $out == *"2 x 16 cores"* && $out != *"1 x 3 cores"* ]] &&
  ok "list machines names the stock folder" || fail "list machines in a folder with models/machines/: $out"

finish "stock_names"
