#!/usr/bin/env bash
# A policy added in one header plus one registry line (tests/models/extra_policy/) is known to the
# whole command: `list policies` shows it with its description, --help names it, and `run` and
# `sim` of a stock scenario run it to the verdict OK, where the stock command refuses the name.
# usage: extra_policy_test.sh TWINSCHED_WITH_EXTRA_POLICY STOCK_TWINSCHED
source "$(dirname "$0")/lib.sh"
need_bin "${2:-}" "extra_policy_test.sh TWINSCHED_WITH_EXTRA_POLICY STOCK_TWINSCHED"
stock=$bin
need_bin "${1:-}" "extra_policy_test.sh TWINSCHED_WITH_EXTRA_POLICY STOCK_TWINSCHED"

policy=locked-lifo
description='one global stack behind a lock; the newest runnable actor runs first (a test)'

list=$(timeout 60 "$bin" list policies)
if grep -F "$description" <<<"$list" | grep -qE "^  $policy +one global"; then ok "list policies shows $policy with its description"
else fail "list policies does not show '$policy  $description':"$'\n'"$list"; fi
for stock_policy in shared-queue distribution sharing stealing donation adaptive; do
  grep -qE "^  $stock_policy " <<<"$list" || fail "list policies lost the stock policy $stock_policy"
done
help=$(timeout 60 "$bin" run --help)
grep -qF "$policy: $description" <<<"$help" && ok "run --help describes --policy $policy" ||
  fail "run --help does not describe $policy"

# Both backends, through the CLI, on a stock scenario: the verdict and exit code 0.
for cmd in run sim; do
  out=$(timeout 120 "$bin" $cmd pingpong --policy $policy --workers 2 --param bounces=20000 2>&1)
  rc=$?
  if [[ $rc -eq 0 ]] && grep -qE '^verdict +OK' <<<"$out" && grep -qE "^scheduler +$policy," <<<"$out"; then
    ok "$cmd pingpong --policy $policy: verdict OK"
  else
    fail "$cmd pingpong --policy $policy -> exit $rc:"$'\n'"$out"
  fi
done
out=$(timeout 120 "$bin" sim forward --policy $policy --workers 3 --checks --param hops=2000 2>&1)
if [[ $? -eq 0 ]] && grep -qE '^verdict +OK' <<<"$out"; then ok "sim forward --policy $policy --checks, 3 workers: verdict OK"
else fail "sim forward --policy $policy --checks:"$'\n'"$out"; fi

# A scenario file names it too, and the stock command, without the registry line, refuses it.
printf '[workload]\nkind = "pingpong"\nbounces = 5000\n[scheduler]\npolicy = "%s"\n' $policy >"$tmp/lifo.toml"
out=$(timeout 120 "$bin" sim "$tmp/lifo.toml" 2>&1)
[[ $? -eq 0 ]] && grep -qE '^verdict +OK' <<<"$out" && ok "a scenario file with policy = \"$policy\" runs" ||
  fail "a scenario file with policy = \"$policy\":"$'\n'"$out"
err=$(timeout 60 "$stock" sim pingpong --policy $policy 2>&1 >/dev/null)
[[ $? -eq 2 && $err == *"$policy"* ]] && ok "the stock twinsched refuses --policy $policy: $err" ||
  fail "the stock twinsched accepted --policy $policy or failed otherwise: $err"
grep -q "$policy" <<<"$(timeout 60 "$stock" list policies)" && fail "the stock twinsched lists $policy"

finish extra-policy
