#!/usr/bin/env bash
# bench/savina_vs_caf.py against a fake CAF port (a shell script that sleeps and prints) and the real
# twinsched on a small savina/pingpong, one round at 1 and 2 workers: the table's rows, the geometric
# mean, what each side reported and the JSON's shape; a failed side (a non-zero exit, an ERROR line,
# a run past --timeout, a twinsched verdict not OK) makes the script exit 1; a bad option exit 2
# before any launch. No timing is checked.
# Usage: savina_vs_caf_test.sh TWINSCHED
source "$(dirname "$0")/../cli/lib.sh"
need_bin "${1:-}" "savina_vs_caf_test.sh TWINSCHED"
script=$src/bench/savina_vs_caf.py
caf=$tmp/caf
mkdir -p "$caf"
# fake BODY: the CAF pingpong port becomes a script running BODY; each launch leaves a mark
fake() { printf '#!/usr/bin/env bash\ntouch %q\n%s\n' "$tmp/launched" "$1" >"$caf/savina_01_pingpong"; chmod +x "$caf/savina_01_pingpong"; }
# compare [OPTIONS...]: the script on pingpong at 300 round trips, one round at 1 and 2 workers
compare() {
  timeout -s KILL 120 python3 "$script" --twinsched "${twinsched:-$bin}" --caf "$caf" --only pingpong \
    --set pingpong:n=300 --rounds 1 --workers 1,2 --no-host "$@" >"$tmp/stdout" 2>"$tmp/stderr"
}

fake 'sleep 0.02; echo "fake pingpong $*"'
compare --json "$tmp/out.json" --out "$tmp/table.txt"
rc=$?
if [[ $rc -eq 0 ]]; then ok "a clean comparison exits 0"; else fail "a clean comparison exits $rc: $(cat "$tmp/stderr")"; fi
cmp -s "$tmp/stdout" "$tmp/table.txt" && ok "--out holds what is printed" || fail "--out differs from what is printed"
for w in 1 2; do
  grep -Eq "^\| pingpong \| $w \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| [0-9.]+x \| [0-9.]+ \| not measured \|$" "$tmp/stdout" &&
    ok "a row at $w workers: both medians with min-max, the ratio" || fail "no row at $w workers"
  grep -Eq "^\| pingpong \| $w \| 901 messages \(expected 901\);.* verdict OK \| fake pingpong --scheduler.max-threads=$w --num=300 \|$" "$tmp/stdout" &&
    ok "at $w workers both sides got the same size and worker count, and what each reported is shown" ||
    fail "what each side reported at $w workers is missing or wrong"
done
grep -Eq "^geometric mean of the ratios, all, all worker counts: [0-9.]+x over 2 rows \(lowest [0-9.]+x\)$" "$tmp/stdout" &&
  ok "the geometric mean over both rows" || fail "no geometric mean over 2 rows"
grep -Eq "^geometric mean of the ratios, micro, 1 workers: " "$tmp/stdout" && ok "the micro group's mean" || fail "no micro group mean"
grep -q "^host: .*load average" "$tmp/stdout" && ok "the load is recorded" || fail "no load line"
cat "$tmp/stdout"
python3 - "$tmp/out.json" <<'EOF' && ok "the JSON holds the rows, the launches alternated, and the host" || fail "the JSON's shape"
import json, sys
d = json.load(open(sys.argv[1]))
rows, launches = d["rows"], d["launches"]
assert [(r["benchmark"], r["workers"]) for r in rows] == [("pingpong", 1), ("pingpong", 2)], rows
for r in rows:
    assert r["ok"] and r["ratio"] > 0 and r["twinsched_s"]["min"] <= r["twinsched_s"]["median"] <= r["twinsched_s"]["max"]
    assert r["caf_s"]["median"] > 0 and r["group"] == "micro"
assert len(launches) == 4, launches
for l in launches:
    assert l["ok"] and l["rc"] == 0 and l["wall_s"] > 0 and l["side"] in ("twinsched", "caf")
ours = [l for l in launches if l["side"] == "twinsched"]
assert all("pings=300" in l["command"] and l["messages"] == 901 and l["verdict_ok"] for l in ours)
firsts = [l["side"] for l in launches if l["first"]]
assert sorted(firsts) == ["caf", "twinsched"], firsts  # the order alternates
assert d["host"]["load_before"] and d["host"]["load_after"] and "all, all worker counts" in d["summary"]
EOF

# Several policies: each against the same CAF launches, the first in the ratio column, the best added.
compare --policy stealing,sharing --json "$tmp/many.json"
rc=$?
for w in 1 2; do
  grep -Eq "^\| pingpong \| $w \| [0-9.]+ \([0-9.]+-[0-9.]+\) \| .* \| not measured \| (stealing|sharing): [0-9.]+x \|$" "$tmp/stdout" &&
    ok "with two policies, a row at $w workers names the best and its ratio" || fail "no best policy at $w workers (exit $rc)"
done
grep -Eq "^geometric mean of the ratios, all, all worker counts: .*; best policy each: [0-9.]+x" "$tmp/stdout" &&
  ok "the best policies' geometric mean" || fail "no geometric mean of the best policies"
python3 - "$tmp/many.json" <<'EOF' && ok "the JSON holds each policy's median and launch" || fail "the JSON of two policies"
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["rows"]:
    assert set(r["policies"]) == {"stealing", "sharing"} and r["best_policy"] in r["policies"], r
    assert r["best_ratio"] == max(v["ratio"] for v in r["policies"].values())
ours = [l for l in d["launches"] if l["side"] == "twinsched"]
assert sorted(l["policy"] for l in ours) == ["sharing", "sharing", "stealing", "stealing"], ours
assert all(l["command"][-2:] == ["--policy", l["policy"]] for l in ours)
EOF

# A failed side fails the script.
expect_failure() {  # WHAT PATTERN [OPTIONS...]
  local what=$1 pattern=$2
  shift 2
  compare "$@"
  local rc=$?
  if [[ $rc -eq 1 ]] && grep -Eq "$pattern" "$tmp/stdout"; then ok "$what: exit 1"; else
    fail "$what: exit $rc, expected 1 and '$pattern' in the output:"; cat "$tmp/stdout" "$tmp/stderr"; fi
}
fake 'echo "fake pingpong"; exit 3'
expect_failure "a CAF port that exits 3" "^FAILED: pingpong, 1 workers, caf: exit 3"
grep -Fq "| pingpong | 1 | - | FAILED | - | - |" "$tmp/stdout" && ok "its row says which side failed" || fail "the failed row"
fake 'echo "ERROR: expected: 300, found: 299"'
expect_failure "a CAF port that prints ERROR" "^FAILED: pingpong, 1 workers, caf: printed ERROR"
fake 'sleep 30'
expect_failure "a CAF port past --timeout" "^FAILED: pingpong, 1 workers, caf: timed out" --timeout 1
fake 'echo "fake pingpong"'
# twinsched whose run exits 0 but says its verdict failed
printf '#!/usr/bin/env bash\n%q "$@" | sed "s/\\"ok\\": true/\\"ok\\": false/"\n' "$bin" >"$tmp/not_ok"
chmod +x "$tmp/not_ok"
twinsched=$tmp/not_ok expect_failure "a twinsched verdict not OK" "^FAILED: pingpong, 1 workers, twinsched: exit 0, verdict not OK"
expect_failure "a twinsched run that exits non-zero" "^FAILED: pingpong, 1 workers, twinsched: exit 2" --set pingpong:n=-5

# Bad options: exit 2, one line, before any launch.
rm -f "$tmp/launched"
for bad in "--only nosuch" "--set pingpong:zz=1" "--set pingpong:n=many" "--rounds 0" "--workers 0" "--caf $tmp/none" \
  "--json $tmp/no/such.json"; do
  # shellcheck disable=SC2086
  compare $bad
  rc=$?
  if [[ $rc -eq 2 && $(wc -l <"$tmp/stderr") -eq 1 ]] && grep -q "^savina_vs_caf: " "$tmp/stderr"; then
    ok "$bad: exit 2 in one line"
  else
    fail "$bad: exit $rc, stderr: $(cat "$tmp/stderr")"
  fi
done
[[ ! -e $tmp/launched ]] && ok "no bad option launched anything" || fail "a bad option launched the CAF port"
finish "savina_vs_caf"
