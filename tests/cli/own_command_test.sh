#!/usr/bin/env bash
# A user's own program built on cli_main (examples/own_command.cpp): every subcommand a user drives
# works on the program's own workload: run, sim, diff, replay, explore, sweep, report, list.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "own_command_test.sh PATH/TO/own_command [SCENARIO]"
scenario=$(realpath "${2:-$src/examples/scatter-gather.toml}")
cd "$tmp" || exit 1
small=(--param jobs=300)

out=$("$bin" list workloads 2>&1) && [[ $out == *scatter-gather* && $out == *forward* ]] &&
  ok "list workloads names the program's workload beside the stock ones" || fail "list workloads: $out"
out=$("$bin" run "$scenario" "${small[@]}" --trace real.tst 2>&1) && [[ $out == *scatter-gather* && $out == *OK* ]] &&
  ok "run on real cores, traced" || fail "run: $out"
out=$("$bin" sim "$scenario" "${small[@]}" --cores 2 --trace sim.tst 2>&1) && [[ $out == *OK* ]] &&
  ok "sim on 2 modeled cores, traced" || fail "sim: $out"
out=$("$bin" run "$scenario" "${small[@]}" --param cost_ns=0 2>&1)
[[ $out == *OK* ]] && ok "a parameter of the program's workload is set by --param" || fail "--param: $out"
out=$("$bin" sim "$scenario" --param jobs=0 2>&1); rc=$?
[[ $rc -eq 2 && $out == *jobs* ]] && ok "a bad parameter of the program's workload is exit 2 naming it" ||
  fail "bad --param ($rc): $out"
out=$("$bin" diff real.tst sim.tst 2>&1) && [[ $out == *"scenario  the same"* ]] && ok "diff of the real and simulated traces" || fail "diff: $out"
out=$("$bin" replay sim.tst 2>&1) && [[ $out == *"identical     yes"* ]] &&
  ok "replay of the simulated trace" || fail "replay: $out"
out=$("$bin" explore "$scenario" "${small[@]}" --cores 2 --runs 4 --jobs 1 --out x 2>&1) &&
  [[ $out == *"no invariant broken"* ]] && ok "explore over the program's workload" || fail "explore: $out"
cat >sweep.toml <<EOS
scenario = "$scenario"
backend = "sim"
[axes]
policy = ["sharing", "stealing"]
cores = [1, 2]
workload.jobs = 200
EOS
out=$("$bin" sweep sweep.toml --jobs 1 -o cells 2>&1) && [[ $out == *"4 OK, 0 FAIL"* && -s cells.csv ]] &&
  ok "sweep of the program's workload" || fail "sweep: $out"
out=$("$bin" report sim.tst -o sim.html 2>&1) && grep -q '<html' sim.html &&
  ok "report of the program's workload" || fail "report: $out"

finish "own command"
