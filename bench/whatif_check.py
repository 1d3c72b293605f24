#!/usr/bin/env python3
"""How well `twinsched whatif` predicts: for each scenario, a 1-worker real run is recorded and
profiled, then predicted at N workers under every policy and compared with real N-worker runs
(the median of --runs launches, the policies' launches alternated).

usage: bench/whatif_check.py [--twinsched BIN] [--machine M] [--cores N] [--runs R]
                             [--out DIR] [--errors ACC.json ...] SCENARIO...
--errors passes `twinsched accuracy --json` files to whatif: each range then also spans where
80% of the model's errors at N workers lie.
Prints per case the real median, the prediction, its error and whether the printed bar covers
the real value; then the median |error| and the share covered. Writes nothing but --out's files
(the recordings, profiles and whatif JSON).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys


def run(cmd):
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--twinsched", default="build/cli/twinsched")
    ap.add_argument("--machine", default="this-machine")
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", default="whatif-check")
    ap.add_argument("--errors", action="append", default=[], help="accuracy JSON for whatif --errors")
    ap.add_argument("scenarios", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    tw = a.twinsched
    errors, covered, rows = [], 0, []
    for sc in a.scenarios:
        name = os.path.splitext(os.path.basename(sc))[0]
        rec, costs = f"{a.out}/{name}.tst", f"{a.out}/{name}-costs.toml"
        run([tw, "run", sc, "--workers", "1", "--trace", rec, "--trace-level", "decisions"])
        run([tw, "profile", sc, "-o", costs])
        errs = [x for f in a.errors for x in ("--errors", f)]
        pred = json.loads(run([tw, "whatif", rec, "--costs", costs, "--machine", a.machine, "--cores", str(a.cores), "--json"] + errs))
        with open(f"{a.out}/{name}-whatif.json", "w") as f:
            json.dump(pred, f, indent=1)
        cases = [c for c in pred["cases"] if "error" not in c]
        real = {c["policy"]: [] for c in cases}
        for _ in range(a.runs):  # the policies alternated, launch by launch
            for p in real:
                out = json.loads(run([tw, "run", sc, "--workers", str(a.cores), "--policy", p, "--json"]))
                real[p].append(out["wall_s"])
        for c in cases:
            r = statistics.median(real[c["policy"]])
            e = (c["predicted_s"] - r) / r
            inside = c["low_s"] <= r <= c["high_s"]
            errors.append(abs(e))
            covered += inside
            rows.append((name, c["policy"], r, c["predicted_s"], e, pred["bar"], inside))
            print(f"{name:14s} {c['policy']:13s} real {r*1e3:9.2f} ms  predicted {c['predicted_s']*1e3:9.2f} ms "
                  f"{e*100:+7.1f}%  range {c['low_s']*1e3:9.2f} - {c['high_s']*1e3:9.2f} ms  "
                  f"{'covered' if inside else 'MISSED'}", flush=True)
    print(f"\n{len(errors)} cases: median |error| {statistics.median(errors)*100:.1f}%, worst {max(errors)*100:.1f}%, "
          f"bar covers the real value in {covered} ({covered/len(errors)*100:.0f}%)")


if __name__ == "__main__":
    sys.exit(main())
