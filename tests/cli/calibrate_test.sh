#!/usr/bin/env bash
# `twinsched calibrate`: the model it writes loads and simulates, and two calibrations agree within a stated spread.
#
# The spread is what this 2-vCPU shared VM allows, with other builds and tests running
# (ctest -j): terms a single thread measures (the core's atomics, spin, the burn loop, the
# runtime's own work) within a factor of 3 of each other, or both under 5 ns (a few cycles:
# at that size the factor is noise); terms two threads measure against each other (line
# transfer, migration, lock hand-off, unpark, wake-up latency), which a preemption of either
# thread inflates, within a factor of 10, or both under 50 ns; clock_ghz within a factor of 3
# (an add chain runs at half speed while the host core's other hardware thread is busy, and
# on this VM that thread belongs to another tenant: 3.0 vs 1.45 GHz seen on an idle guest, 3.17
# vs 1.49 GHz in CI, 3.43 vs 1.26 in a fresh-clone run while compile_fail tests compiled beside it).
# message and turn are compared as their sum, and lock_handoff with two line transfers added
# back: calibrate derives each by a subtraction that noise can push to 0 (seen here:
# message/turn 10/33 vs 31/19 ns, sums 43 and 50 ns; lock hand-off 0 vs 1384 ns).
# cold_actor (a cold ring's time per cold touch beyond what the simulation charges, ~170 ns on a
# quiet machine) and locked_queue_op (a locked FIFO op beyond its lock's charge, ~12 ns) are
# residuals that load moves most: another process on the core evicts the ring's actors, or
# stretches the batches (seen with four calibrations at once on 2 vCPUs: cold_actor 20 vs 194,
# locked_queue_op 12 vs 91 ns): within x10, or both under 50 ns, as the two-thread terms.
# The kernels (pi's Leibniz term, ns a term) are single-thread loops: within x3.
# private_cache_kib comes from sysfs (or CPUID): equal. shared_cache_kib comes from a random
# walk's latency curve, which a neighbour on the shared cache shifts: within x4, or 0 on one
# side (a loaded machine can hide the level); llc_actor, a residual of a few ns: as cold_actor.
# memory_load is the same walk's latency over 128 MiB (one thread's dependent loads, ~190-250 ns
# here): as the single-thread terms, within x3; stream_load (a walk in address order, a few ns) too.
# queue_op, envelope, mailbox_push and mailbox_pop are residuals too (the runtime code's real
# time minus what the simulator charges for its atomics), which noise can push to 0 (seen under
# ASan beside other tests: mailbox_push 0 vs 8 ns, and 23.8 vs 7.3 ns in CI): within x3, or both
# under 30 ns.
# burn_call (what burn_ns(2000) costs beyond 2000 ns, after burn_ns takes its own measured
# overhead off) is a residual of a few tens of ns either way: within x3, or both under 100 ns.
# The spreads (wake_latency_quantiles_ns, timer_late_quantiles_ns) are two-thread terms too,
# quantile by quantile from 1% to 90% (within x10, or both under 50 ns); their 99% and 99.9%,
# a few of a quick calibration's 300 samples, are only checked to be in order.
# Every cost must be a finite number >= 0. The comparison itself is checked to fail on a
# pair outside the spread, so this test can fail.
source "$(dirname "$0")/lib.sh"
set -e
need_bin "${1:-}" "calibrate_test.sh PATH/TO/twinsched"
dir=$tmp
cd "$src"

"$bin" calibrate --quick -o "$dir/a.toml" 2> "$dir/a.err"
grep -q "^calibrate: the worker loop per message and per turn" "$dir/a.err"  # progress on stderr
grep -q "^calibrate: wrote $dir/a.toml" "$dir/a.err"
"$bin" calibrate --quick --name second > "$dir/b.toml" 2> "$dir/b.err"  # stdout
grep -q '^name = "second"' "$dir/b.toml"

# Two calibrations agree only if the host kept its state between them. This VM's host runs its
# two vCPUs near (a line transfer ~10 ns), apart (~65-75 ns), or now and then on one core
# (~0.1 ns), and moves between these within seconds (a fresh-clone run: 0.137 vs 67.3 ns, lock
# hand-off 17.6 vs 264). Every two-thread term moves with it, so a pair from two states says
# nothing about calibrate: the second is taken again, up to 4 more times, until its line
# transfer is within 2x of the first's (`same_line_state`, twin/calibrate.hpp; `accuracy`'s host
# check). The pair compared below is always of one state, and is compared in full.
line_ns() { sed -n 's/^line_transfer_same_socket_ns = \([0-9.]*\).*/\1/p' "$1"; }
same_state() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= 2 * b && b <= 2 * a) }'; }
for try in 1 2 3 4; do
  same_state "$(line_ns "$dir/a.toml")" "$(line_ns "$dir/b.toml")" && break
  echo "calibrate: the host changed state between the two calibrations ($(line_ns "$dir/a.toml") vs $(line_ns "$dir/b.toml") ns a line transfer); the second again ($try of 4)"
  "$bin" calibrate --quick --name second > "$dir/b.toml" 2> "$dir/b.err"
done

# the written model loads, and a simulation runs on it
"$bin" sim scenarios/pingpong.toml --machine "$dir/a.toml" --cores 1 --workers 1 --param bounces=2000 > "$dir/sim.out"
grep -q "this-machine" "$dir/sim.out"

compare() {  # compare A B [KEY...]: the two models in full, or only the cost terms named
  python3 - "$@" <<'PY'
import math, sys, tomllib
a, b = (tomllib.load(open(p, "rb")) for p in sys.argv[1:3])
only = set(sys.argv[3:])
for m in (a, b):  # what calibrate measured before subtracting: the split of these is ill-conditioned
    c = m["costs"]
    c["message+turn_ns"] = c["message_ns"] + c["turn_ns"]
    c["lock_handoff+2transfers_ns"] = c.pop("lock_handoff_ns") + 2 * c["line_transfer_same_socket_ns"]
two_threads = {"line_transfer_same_socket", "line_transfer_cross_socket", "migration_per_kib",
               "lock_handoff+2transfers", "unpark", "wake_latency"}
bad = []
for key, x in a["costs"].items():
    if only and key not in only:
        continue
    y = b["costs"][key]
    name = key.removesuffix("_ns")
    if isinstance(x, list) or isinstance(y, list):  # a spread: 8 quantiles, 1% to 99.9%
        if not all(isinstance(q, list) and len(q) == 8 and q == sorted(q) and
                   all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0 for v in q) for q in (x, y)):
            bad.append(f"{key}: {x} vs {y} (not 8 finite, non-decreasing quantiles)")
            continue
        for i in range(6):  # 1% to 90%: a quick calibration's 300 samples leave its tail to chance
            lo, hi = sorted((x[i], y[i]))
            if hi > 50 and hi > 10 * lo:
                bad.append(f"{key}[{i}]: {x[i]} vs {y[i]} (more than x10 apart)")
        continue
    if not all(isinstance(v, (int, float)) and math.isfinite(v) and v >= 0 for v in (x, y)):
        bad.append(f"{key}: {x} vs {y} (not a finite cost)")
        continue
    if name in ("message", "turn"):
        continue  # compared as their sum
    residuals = {"queue_op", "envelope", "mailbox_push", "mailbox_pop"}
    loaded = {"locked_queue_op", "cold_actor", "llc_actor"}
    factor, floor = ((10, 50) if name in two_threads or name in loaded else (3, 100) if name == "burn_call" else
                     (3, 30) if name in residuals else (3, 5))
    lo, hi = sorted((x, y))
    if hi > floor and hi > factor * lo:
        bad.append(f"{key}: {x} vs {y} (more than x{factor} apart)")
if not only:
    # the compute kernels (pi's Leibniz term): one thread's tight loop, like the core's own costs
    ka, kb = a.get("kernels", {}), b.get("kernels", {})
    if "leibniz_term_ns" not in ka or set(ka) != set(kb):
        bad.append(f"kernels: {sorted(ka)} vs {sorted(kb)} (pi's leibniz_term must be measured)")
    for key in set(ka) & set(kb):
        lo, hi = sorted((ka[key], kb[key]))
        if not (lo > 0 and hi <= 3 * lo):
            bad.append(f"kernels.{key}: {ka[key]} vs {kb[key]} (more than x3 apart)")
    if a["topology"].get("private_cache_kib") != b["topology"].get("private_cache_kib"):
        bad.append("private_cache_kib: differs (it is read from sysfs)")
    sa, sb = sorted((a["topology"].get("shared_cache_kib", 0), b["topology"].get("shared_cache_kib", 0)))
    if sa > 0 and sb > 4 * sa:
        bad.append(f"shared_cache_kib: {sa} vs {sb} (more than x4 apart)")
    ca, cb = a["topology"]["clock_ghz"], b["topology"]["clock_ghz"]
    if max(ca, cb) > 3 * min(ca, cb):
        bad.append(f"clock_ghz: {ca} vs {cb}")
for line in bad:
    print("calibrations disagree:", line)
sys.exit(1 if bad else 0)
PY
}
show_notes() {  # what each calibration printed, to see which measurement moved
  for f in "$dir"/*.err; do echo "--- $(basename "$f")"; cat "$f"; done
}
compare "$dir/a.toml" "$dir/b.toml" || { show_notes; exit 1; }

# A host whose other tenants hide the shared level from the walk: cold_actor must not depend on
# the level (without it, the cold ring's envelope reads were charged as loads from memory, and
# cold_actor came out 0 against 68 ns in CI). Given no shared level, it stays within the loaded
# terms' spread of the first calibration's.
"$bin" calibrate --quick --shared-cache-kib 0 -o "$dir/n.toml" 2> "$dir/n.err"
grep -q "KiB as given)" "$dir/n.err"
if grep -q "^shared_cache_kib = [1-9]" "$dir/n.toml"; then
  die "calibrate --shared-cache-kib 0 wrote a shared level: $(grep '^shared_cache_kib' "$dir/n.toml")"
fi
compare "$dir/a.toml" "$dir/n.toml" cold_actor_ns || { show_notes; exit 1; }

# the comparison fails on a pair outside the spread
sed -E 's/^(message_ns = ).*/\11000.0/; s/^(turn_ns = ).*/\10.0/; s/^(mailbox_pop_ns = ).*/\140.0/
        s/^(wake_latency_quantiles_ns = ).*/\1[1e7, 1e7, 1e7, 1e7, 1e7, 1e7, 1e7, 1e7]/' "$dir/a.toml" > "$dir/c.toml"
sed -E 's/^(message_ns = ).*/\11.0/; s/^(turn_ns = ).*/\10.0/; s/^(mailbox_pop_ns = ).*/\12.0/
        s/^(timer_late_quantiles_ns = ).*/\1[8, 7, 6, 5, 4, 3, 2, 1]/' "$dir/a.toml" > "$dir/d.toml"
if compare "$dir/c.toml" "$dir/d.toml" > "$dir/cmp.out"; then
  die "the spread check accepted message+turn 1000 vs 1 ns, mailbox_pop 40 vs 2 ns and spreads far apart or out of order"
fi
grep -q "message+turn_ns: 1000.0 vs 1.0" "$dir/cmp.out"
grep -q "mailbox_pop_ns: 40.0 vs 2.0" "$dir/cmp.out"
grep -q "wake_latency_quantiles_ns\[0\]: " "$dir/cmp.out"
grep -q "timer_late_quantiles_ns: .* (not 8 finite, non-decreasing quantiles)" "$dir/cmp.out"
echo "calibrate: two quick calibrations agree within the stated spread"
