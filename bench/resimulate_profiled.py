#!/usr/bin/env python3
"""Simulate again the cases of a recorded `twinsched accuracy --json` file on one or more
machine models, each turn charged from a fresh 1-worker profile of its scenario (`twinsched
profile`, then `sim --costs`), and print each case's error against the recorded real makespan
and each model's summary. One profile per scenario serves every model, so the columns differ
only by the model: how to compare two cost models against the same real runs.

  python3 bench/resimulate_profiled.py --twinsched build-ci/cli/twinsched ACC.json OLD.toml NEW.toml
"""
import argparse
import json
import re
import statistics
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--twinsched", default="build/cli/twinsched")
    ap.add_argument("--jobs", type=int, default=2, help="simulations at once (profiles run one at a time)")
    ap.add_argument("accuracy_json")
    ap.add_argument("machines", nargs="+", help="machine model files (.toml)")
    a = ap.parse_args()
    acc = json.load(open(a.accuracy_json))
    cases = [c for c in acc["cases"] if c["ok"]]
    if not cases:
        raise SystemExit(f"{a.accuracy_json}: no case passed its verdict")
    work = Path(tempfile.mkdtemp(prefix="resim-profiled-"))
    profiles = {}
    for s in sorted({c["source"] for c in cases}):  # real runs: one at a time, nothing beside them
        out = work / (Path(s).stem + ".costs.toml")
        subprocess.run([a.twinsched, "profile", s, "-o", str(out)], capture_output=True, check=True)
        profiles[s] = str(out)

    def simulate(job):
        c, m = job
        r = subprocess.run([a.twinsched, "sim", c["source"], "--cores", str(c["workers"]), "--workers", str(c["workers"]),
                            "--policy", c["policy"], "--machine", m, "--costs", profiles[c["source"]]],
                           capture_output=True, text=True)
        t = re.search(r"sim time\s+([0-9.]+) s", r.stdout)
        if r.returncode != 0 or not t:
            raise SystemExit(f"sim {c['scenario']} on {m} failed:\n{r.stdout}{r.stderr}")
        return float(t.group(1)) * 1e3

    jobs = [(c, m) for c in cases for m in a.machines]
    with ThreadPoolExecutor(a.jobs) as ex:
        sims = dict(zip(((c["scenario"], c["policy"], c["workers"], m) for c, m in jobs), ex.map(simulate, jobs)))
    for w in sorted({c["workers"] for c in cases}):
        print(f"--- {w} worker(s): real ms | per model: sim ms, error")
        errors = {m: [] for m in a.machines}
        for c in (c for c in cases if c["workers"] == w):
            real = c["real"]["makespan_ms"]
            row = f"{c['scenario'] + ' ' + c['policy']:32s} {real:9.1f}"
            for m in a.machines:
                s = sims[(c["scenario"], c["policy"], w, m)]
                e = (s - real) / real * 100
                errors[m].append(abs(e))
                row += f" | {s:9.1f} {e:+7.1f}%"
            print(row)
        for m in a.machines:
            e = errors[m]
            print(f"{m}: median |error| {statistics.median(e):.1f}%, worst {max(e):.1f}%, "
                  f"within 10%: {sum(x <= 10 for x in e)}, within 25%: {sum(x <= 25 for x in e)} of {len(e)}")


if __name__ == "__main__":
    main()
