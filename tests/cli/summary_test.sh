#!/usr/bin/env bash
# What run and sim print: simulated time named so, counters that say what they count, the
# determinism verdict, and the warning when workers outnumber the hardware threads.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "summary_test.sh PATH/TO/twinsched"
# has TEXT REGEX WHAT: TEXT has a line matching REGEX
has() { if grep -Eq -- "$2" <<<"$1"; then echo "ok: $3"; else fail "$3: no line matches /$2/ in:"$'\n'"$1"; fi; }
hasnt() { if grep -Eq -- "$2" <<<"$1"; then fail "$3: a line matches /$2/ in:"$'\n'"$1"; else echo "ok: $3"; fi; }

cd "$tmp" || exit 1
printf '[workload]\nkind = "pingpong"\nbounces = 2000\n' >pp.toml

out=$("$bin" sim pp.toml --cores 4 --check-determinism); rc=$?
[[ $rc -eq 0 ]] || fail "sim --check-determinism exited $rc"
has "$out" '^sim time      0\.[0-9]{6} s simulated, ' "sim names its time simulated"
hasnt "$out" 'wall time' "sim prints no wall time"
has "$out" '^migrations    0  \(actors the policy moved to another worker\)$' "the policy's migrations say what they count"
has "$out" '^event hash    [0-9a-f]{16}  \(.*, [0-9]+ turns on another core\)$' "the simulator's say what they count"
has "$out" '^determinism   OK: ran twice, same result and event hash$' "--check-determinism prints its verdict"
# pingpong has one ball: on 4 workers, those that never ran a turn were never busy
has "$out" '^ +[1-3] +0\.0 +100\.0 +0 ' "a worker without a turn shows 0% busy"

json=$("$bin" sim pp.toml --cores 2 --check-determinism --json)
python3 - "$json" <<'PY' && echo "ok: sim --json: hex strings and the determinism verdict" || fail "sim --json: $json"
import json, sys
j = json.loads(sys.argv[1])
for v in (j["checksum"], j["reference"], j["sim"]["event_hash"]):
    assert isinstance(v, str) and len(v) == 16 and int(v, 16) >= 0, v
assert j["determinism"] == {"checked": True, "identical": True, "first_difference": ""}, j["determinism"]
assert "migrations" not in j["sim"] and isinstance(j["sim"]["turns_on_another_core"], int)
PY
# --no-lookahead: every yield a simcall, the same run; without it, pingpong skips some (one worker busy at a time)
with=$("$bin" sim pp.toml --cores 4 --json)
without=$("$bin" sim pp.toml --cores 4 --no-lookahead --json)
python3 - "$with" "$without" <<'PY' && echo "ok: --no-lookahead: same event hash, no skips" || fail "--no-lookahead: $with / $without"
import json, sys
a, b = json.loads(sys.argv[1])["sim"], json.loads(sys.argv[2])["sim"]
assert a["event_hash"] == b["event_hash"] and a["flushes"] == b["flushes"], (a, b)
assert b["lookahead_skips"] == 0 and 0 < a["lookahead_skips"] < a["flushes"], (a, b)
PY
out=$("$bin" sim pp.toml --cores 1,2 --check-determinism)
has "$out" '^determinism   OK: every simulation ran twice, same result and event hash$' "a scaling table's determinism verdict"
out=$("$bin" run pp.toml --json)
python3 - "$out" <<'PY' && echo "ok: run --json: the checksum is a hex string" || fail "run --json: $out"
import json, sys
j = json.loads(sys.argv[1])
assert isinstance(j["checksum"], str) and j["checksum"] == j["reference"] and int(j["checksum"], 16) > 2**53
PY

# More workers than hardware threads: a one-line warning naming the idle strategy, and the
# documented maximum of 1024 workers still finishes (deadline 60 s, generous on purpose).
threads=$(getconf _NPROCESSORS_ONLN)
if ((threads < 1024)); then
  err=$(timeout 60 "$bin" run --param hops=10 --workers 1024 2>&1 >run.out); rc=$?
  [[ $rc -eq 0 ]] || fail "1024 workers: exit $rc (124: past the 60 s deadline)"
  has "$(cat run.out)" '^verdict       OK$' "1024 workers, idle backoff: verdict OK"
  has "$err" "^twinsched: warning: 1024 workers on $threads hardware threads: idle strategy backoff skips its spins and parks for " \
    "the warning names the default idle strategy"
  [[ $(wc -l <<<"$err") -eq 1 ]] || fail "more than one warning line: $err"
  err=$("$bin" run --param hops=10 --workers $((threads + 1)) --idle busy-spin 2>&1 >/dev/null)
  has "$err" "^twinsched: warning: $((threads + 1)) workers on $threads hardware threads: idle strategy busy-spin " "the warning names busy-spin"
fi
err=$("$bin" run --param hops=10 --workers "$((threads < 1024 ? threads : 1024))" 2>&1 >/dev/null)
hasnt "$err" 'warning' "no warning with a hardware thread per worker"

finish "summary"
