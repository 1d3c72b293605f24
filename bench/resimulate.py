#!/usr/bin/env python3
"""Simulate again, with this build, the cases of recorded `twinsched accuracy --json` files,
against the real runs they hold.

The simulator is deterministic and runs anywhere, so a matrix measured once on a machine we
do not have (the 16-core validation in docs/validation/) keeps telling whether a change to
the model predicts that machine better or worse. Each case is simulated as `accuracy` did:
one modeled core per worker (adaptive: up to the recorded host's cores), the recorded seed,
idle strategy and every workload parameter that differs from the scenario file's own.

usage: bench/resimulate.py [--twinsched BIN] [--machine FILE] [--cases REGEX] [--jobs N]
                           [--metric M] [--tolerance PCT] [--worst-tolerance PCT] ACCURACY.json...
Run from the repository root (the recorded cases name scenarios/*.toml). --machine defaults
to the .toml beside the first JSON file. Prints, per case, the real makespan, the simulated
one then and now with their signed errors, and a summary of now; exits 1 when --tolerance
(median |error|) or --worst-tolerance is exceeded, or a simulation fails. --metric compares
another of accuracy's figures instead of the makespan: the workers' CPU time (cpu_ms) or the
requests' latency (latency_p50_us, latency_p99_us).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tomllib


def case_name(c):
    return f"{c['scenario']} {c['policy']} {c['workers']}w"


def label(c):
    """case_name and the idle strategy, for the table (one scenario may run under several)."""
    return f"{c['scenario']} {c['policy']} {c.get('idle', '')} {c['workers']}w"


# accuracy's figure -> how a `sim --json` result gives it
METRICS = {
    "makespan_ms": lambda r: r["wall_s"] * 1e3,
    "cpu_ms": lambda r: r["cpu_ns"] / 1e6,
    "latency_p50_us": lambda r: r["request_latency"]["p50_ns"] / 1e3,
    "latency_p99_us": lambda r: r["request_latency"]["p99_ns"] / 1e3,
}


def sim_command(args, c, host_cores):
    with open(c["source"], "rb") as f:
        scenario = tomllib.load(f)
    cores = c["workers"]
    if c["policy"] == "adaptive":  # accuracy: the cores the real run could use
        max_workers = scenario.get("scheduler", {}).get("max_workers", 0) or c["workers"]
        cores = max(c["workers"], min(max_workers, host_cores))
    cmd = [args.twinsched, "sim", c["source"], "--machine", args.machine, "--cores", str(cores),
           "--workers", str(c["workers"]), "--policy", c["policy"], "--idle", c["idle"],
           "--seed", str(c["seed"]), "--json"]
    own = scenario.get("workload", {})
    for key, value in sorted(c["params"].items()):
        if key not in own or own[key] == value:
            continue
        numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
        text = (str(int(value)) if float(value).is_integer() else str(value)) if numeric else str(value)
        cmd += ["--param", f"{key}={text}"]
    return cmd


def simulate(args, c, host_cores):
    cmd = sim_command(args, c, host_cores)
    out = subprocess.run(cmd, capture_output=True, text=True)
    try:
        return METRICS[args.metric](json.loads(out.stdout)), ""
    except (json.JSONDecodeError, KeyError):
        return None, " ".join(cmd) + ": " + (out.stderr.strip().splitlines() or ["no output"])[-1]


def percent(text):
    return float(text.rstrip("%"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("files", nargs="+", metavar="ACCURACY.json")
    p.add_argument("--twinsched", default="build/cli/twinsched")
    p.add_argument("--machine", help="machine model (default: the .toml beside the first file)")
    p.add_argument("--cases", default=".", help="regular expression on 'scenario policy Nw'")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--metric", choices=sorted(METRICS), default="makespan_ms", help="the figure compared (default: makespan_ms)")
    p.add_argument("--tolerance", type=percent, help="fail when the median |error| exceeds this (%%)")
    p.add_argument("--worst-tolerance", type=percent, help="fail when the largest |error| exceeds this (%%)")
    args = p.parse_args()
    if not args.machine:
        beside = sorted(glob.glob(os.path.join(os.path.dirname(args.files[0]) or ".", "*.toml")))
        if len(beside) != 1:
            p.error(f"--machine: {len(beside)} .toml files beside {args.files[0]}; name one")
        args.machine = beside[0]
    wanted = re.compile(args.cases)
    work = []
    for f in args.files:
        with open(f) as fh:
            recorded = json.load(fh)
        for c in recorded["cases"]:
            if c["ok"] and wanted.search(case_name(c)):
                work.append((c, recorded.get("host_cores", c["workers"])))
    if not work:
        p.error("no recorded case matches --cases")

    errors, failed = [], 0
    m = args.metric
    print(f"{'case':36s} {'real':>9s} {'sim then':>9s} {'error':>8s} {'sim now':>9s} {'error':>8s}  ({m})")
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for (c, _), (now_ms, why) in zip(work, pool.map(lambda w: simulate(args, *w), work)):
            real, then = c["real"][m], c["sim"][m]
            if now_ms is None:
                failed += 1
                print(f"{label(c):36s} FAILED: {why}", flush=True)
                continue
            err = 100 * (now_ms - real) / real
            errors.append((abs(err), label(c)))
            print(f"{label(c):36s} {real:9.2f} {then:9.2f} {c['error'][m]:+7.1f}% {now_ms:9.2f} {err:+7.1f}%",
                  flush=True)
    if not errors:
        print("no case simulated")
        return 1
    errors.sort()
    median = statistics.median(e for e, _ in errors)
    worst, worst_case = errors[-1]
    within = lambda t: sum(e <= t for e, _ in errors)
    print(f"{m} |error| now: median {median:.1f}%, worst {worst:.1f}% ({worst_case}); "
          f"within 10%: {within(10)} of {len(errors)}, within 25%: {within(25)} of {len(errors)}"
          + (f"; {failed} failed" if failed else ""))
    bad = failed > 0
    if args.tolerance is not None and median > args.tolerance:
        print(f"median |error| {median:.1f}% exceeds --tolerance {args.tolerance}%")
        bad = True
    if args.worst_tolerance is not None and worst > args.worst_tolerance:
        print(f"worst |error| {worst:.1f}% exceeds --worst-tolerance {args.worst_tolerance}%")
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
