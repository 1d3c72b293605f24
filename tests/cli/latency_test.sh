#!/usr/bin/env bash
# Open-loop load, latency and CPU from the command line: the summary's lines and JSON on both backends, the frontier's table, JSON and picture, and bad input in one line.
source "$(dirname "$0")/lib.sh"
need_bin "${1:-}" "latency_test.sh PATH/TO/twinsched"
cd "$tmp" || exit 1
small=(--param requests=400)

out=$("$bin" run open-light "${small[@]}" 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"latency       p50 "*"(400 requests, arrival to completion)"* && $out == *"timers        400 delivered"* &&
   $out == *"cpu           "*"of 2 workers"*"parked "* && $out == *"verdict       OK"* ]] &&
  ok "run open-light: latency, timers and CPU lines" || fail "run open-light ($rc): $out"
out=$("$bin" sim open-heavy "${small[@]}" 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"latency       p50 "*"(400 requests"* && $out == *"sched delay   p50 "* && $out == *"verdict       OK"* ]] &&
  ok "sim open-heavy: the same lines in simulated time" || fail "sim open-heavy ($rc): $out"
a=$("$bin" sim open-medium "${small[@]}" --json | grep -E '"(event_hash|p99_ns)"')
b=$("$bin" sim open-medium "${small[@]}" --json | grep -E '"(event_hash|p99_ns)"')
[[ -n $a && $a == "$b" ]] && ok "an open-loop simulation is deterministic, its latencies too" || fail "determinism: '$a' '$b'"
"$bin" run open-light "${small[@]}" --json >r.json
python3 - r.json <<'PY' && ok "--json carries latency, scheduling delay, timers and CPU" || fail "json: $(head -c 600 r.json)"
import json, sys
j = json.load(open(sys.argv[1]))
l = j["request_latency"]
assert l["count"] == 400 and 0 < l["p50_ns"] <= l["p99_ns"] <= l["p999_ns"] <= l["max_ns"], l
assert j["timers"]["delivered"] == 400 and j["cpu_ns"] > 0, j["timers"]
assert all("cpu_ns" in w and "parked_ns" in w and w["parked_ns"] <= w["idle_ns"] for w in j["per_worker"])
PY
out=$("$bin" run open-light "${small[@]}" --param arrivals=onoff --param service_dist=exponential 2>&1)
[[ $out == *"verdict       OK"* ]] && ok "on/off arrivals and exponential costs" || fail "onoff: $out"

# traces carry them: trace info shows them, diff compares them
"$bin" run open-light "${small[@]}" --trace a.tst >/dev/null && "$bin" sim open-light "${small[@]}" --trace b.tst >/dev/null
out=$("$bin" trace info a.tst 2>&1)
[[ $out == *"latency       p50 "*"(400 requests)"* && $out == *"timers        400 delivered"* && $out == *"cpu           "* ]] &&
  ok "trace info shows a recorded run's latency, timers and CPU" || fail "trace info: $out"
out=$("$bin" diff a.tst b.tst 2>&1)
[[ $out == *"latency p50 (us)"* && $out == *"latency p99 (us)"* && $out == *"cpu (ms)"* ]] &&
  ok "diff compares latency and CPU, real against simulated" || fail "diff: $out"
out=$("$bin" replay b.tst 2>&1)
[[ $out == *"identical     yes"* && $out == *"deliveries    equal"* ]] && ok "a simulated run with timers replays identically" ||
  fail "replay b.tst: $out"
out=$("$bin" replay a.tst 2>&1)
[[ $out == *"deliveries    equal"* ]] && ok "a real run with timers replays with the same deliveries (the arrival stamps left out of the digests)" ||
  fail "replay a.tst: $out"
out=$("$bin" report a.tst b.tst -o r.html 2>&1); rc=$?
[[ $rc -eq 0 ]] && grep -q "request latency" r.html && grep -q "scheduling delay" r.html &&
  ok "the report shows each run's latency and CPU" || fail "report ($rc): $out"

# the frontier: every cell in the table, the front marked, JSON and an SVG picture
out=$("$bin" frontier open-light "${small[@]}" --sim --policy stealing,sharing --idle busy-spin,park --svg f.svg 2>err.txt); rc=$?
[[ $rc -eq 0 && $(grep -c '^  \(busy-spin\|park\) ' <<<"$out") -eq 4 && $out == *"   *"* && -s f.svg ]] &&
  ok "frontier --sim: four cells, the front marked, a picture" || fail "frontier ($rc): $out $(cat err.txt)"
grep -q "frontier 4/4" err.txt && ok "frontier reports its progress" || fail "progress: $(cat err.txt)"
python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" f.svg && grep -q 'on the Pareto front' f.svg &&
  ok "the picture is well-formed SVG with its legend" || fail "svg"
"$bin" frontier open-light "${small[@]}" --sim --policy stealing --idle busy-spin,park --json >f.json 2>/dev/null
python3 - f.json <<'PY' && ok "frontier --json: busy-spin burns more CPU a request and waits less than park" || fail "frontier json: $(cat f.json)"
import json, sys
c = {x["idle"]: x for x in json.load(open(sys.argv[1]))["cells"]}
spin, park = c["busy-spin"], c["park"]
assert spin["cpu_per_request_ns"] > 3 * park["cpu_per_request_ns"], (spin, park)
assert spin["p50_ns"] < park["p50_ns"], (spin, park)
assert spin["on_front"] and park["on_front"]
PY

# errors: one line, exit 2, before any work
err=$("$bin" run open-light --param service_dist=gauss 2>&1); rc=$?
[[ $rc -eq 2 && $err == *"workload.service_dist must be one of uniform, exponential, constant, got 'gauss'"* ]] &&
  ok "an unknown distribution is exit 2, naming the choices" || fail "service_dist ($rc): $err"
printf 'name = "x"\n[workload]\nkind = "open-loop"\narrivals = "burst"\n' >bad.toml
err=$("$bin" run bad.toml 2>&1); rc=$?
[[ $rc -eq 2 && $err == "twinsched: bad.toml:4:"*"arrivals must be one of poisson, onoff"* ]] &&
  ok "a bad arrival process fails at its line" || fail "arrivals ($rc): $err"
err=$("$bin" frontier forward --sim --policy stealing --idle park 2>/dev/null); rc=$?
err=$("$bin" frontier forward --sim --policy stealing --idle park 2>&1 >/dev/null | tail -1)
[[ $rc -eq 2 && $err == *"records no request latency"* ]] && ok "frontier on a closed-loop workload says why not" ||
  fail "frontier forward ($rc): $err"
err=$("$bin" frontier open-light --idle nap 2>&1); rc=$?
[[ $rc -eq 2 && $err == "twinsched: --idle: unknown idle strategy 'nap' (see \`twinsched list idle\`)" ]] &&
  ok "frontier refuses an unknown idle strategy" || fail "--idle nap ($rc): $err"
err=$("$bin" frontier open-light --svg /nonexistent/f.svg 2>&1); rc=$?
[[ $rc -eq 2 && ! -e /nonexistent/f.svg ]] && ok "frontier refuses an unwritable --svg before any run" || fail "--svg ($rc): $err"
finish "latency"
