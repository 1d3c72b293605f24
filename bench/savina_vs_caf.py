#!/usr/bin/env python3
"""twinsched's Savina workloads against CAF's own ports of them, side by side, with the same parameters.

CAF's ports (actor-framework/benchmarks, branch topic/update, src/caf/savina/) are one executable
each, built by ../shared/peers/caf-savina/build.sh. Each benchmark that both sides have runs at each
worker count in R rounds; a round is one launch of each side, the order alternating from round to
round, so a noisy neighbour on the shared VM hits both alike. A launch's time is the wall time of
the whole process as this script measures it: both sides pay their process start, CAF's actor
system start-up and shut-down included. Each launch's output goes to a file, read after it exits
(no pipe is read while a measured process runs).

Both sides get every Savina parameter of the benchmark explicitly (Savina's default, or --set),
so a changed default on either side cannot make them do different work. CAF's worker count is
--scheduler.max-threads=N; twinsched's is --workers N with the scenario's policy (the default) or
--policy. A launch fails when its process exits non-zero or runs past --timeout, when twinsched's
verdict is not OK, or when a CAF port prints ERROR (its own validation, where it has one); any
failure makes the script exit 1 after the table. Exit 2: a bad option, name, path or parameter,
found before any launch.

The host state: on this VM the two vCPUs are sometimes near (~10 ns line transfer) and sometimes
apart (~70 ns), and every 2-worker figure with them. As in bench/peer_compare.sh, `twinsched
calibrate --quick` measures the line transfer before and after each benchmark's launches (~7 s
each; --no-host leaves it out); a benchmark whose two figures differ a lot ran partly in each state.
The load average (uptime) is recorded at the start and the end.

usage: bench/savina_vs_caf.py [--twinsched BIN] [--caf DIR] [--rounds R] [--workers 1,2]
                              [--policy P[,P...]] [--only NAMES] [--set NAME:PARAM=VALUE ...]
                              [--timeout S] [--no-host] [--json FILE] [--out FILE] [--list]
Prints a table per benchmark and worker count: each side's median wall time with the launches'
min-max, the ratio CAF/twinsched (>1: twinsched faster), twinsched's own time for the run alone (its
summary's wall time: without the process start, the scenario's set-up and the sequential reference
a result check computes), the line transfer before-after; then the
geometric means of the ratios, and what each side reported (twinsched's message count and result
line, the CAF port's output), so a reader can see that both did the same work.
"""
import argparse
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from dataclasses import dataclass, field

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@dataclass
class Param:
    savina: str  # Savina's command-line flag (its *Config.java), without the dash
    default: object  # Savina's default
    caf: str  # the CAF port's long option
    ours: str  # twinsched's --param name; None: twinsched has none (a seed, a parameter Akka ignores)


@dataclass
class Bench:
    caf: str  # the CAF port's executable
    group: str  # Savina's group: micro, concurrency, parallelism
    params: list = field(default_factory=list)


P = Param
# Savina's 30 benchmarks that CAF ported (23; logmap and banking do not build against CAF 0.17),
# each with Savina's parameters and defaults, the CAF port's option and twinsched's name for each.
BENCHES = {
    "pingpong": Bench("savina_01_pingpong", "micro", [P("n", 40000, "num", "pings")]),
    "count": Bench("savina_02_count", "micro", [P("n", 1000000, "num", "messages")]),
    "fjthrput": Bench("savina_03_fjthrput", "micro", [P("n", 10000, "nnn", "messages"), P("a", 60, "aaa", "actors")]),
    "fjcreate": Bench("savina_04_fjcreate", "micro", [P("n", 40000, "nnn", "actors")]),
    "threadring": Bench("savina_05_threadring", "micro", [P("n", 100, "nnn", "actors"), P("r", 100000, "rrr", "hops")]),
    "chameneos": Bench("savina_06_chameneos", "micro",
                       [P("c", 100, "ccc", "chameneos"), P("m", 200000, "mmm", "meetings")]),
    "big": Bench("savina_07_big", "micro", [P("n", 20000, "nnn", "pings"), P("w", 120, "www", "actors")]),
    "concdict": Bench("savina_08_concdict", "concurrency",
                      [P("e", 20, "eee", "workers"), P("m", 10000, "mmm", "messages"),
                       P("w", 10, "www", "write_percent")]),
    "concsll": Bench("savina_09_concsll", "concurrency",
                     [P("e", 20, "eee", "workers"), P("m", 8000, "mmm", "messages"),
                      P("w", 10, "www", "write_percent"), P("s", 1, "sss", "size_percent")]),
    "bndbuffer": Bench("savina_10_bndbuffer", "concurrency",
                       [P("bb", 50, "bbb", "buffer_size"), P("np", 40, "ppp", "producers"),
                        P("nc", 40, "ccc", "consumers"), P("pc", 25, "xxx", "prodcost"),
                        P("cc", 25, "yyy", "conscost"), P("ipp", 1000, "iii", "items")]),
    "philosopher": Bench("savina_11_philosopher", "concurrency", [P("n", 20, "nnn", "philosophers"), P("m", 10000, "mmm", "rounds")]),
    "logmap": Bench("savina_14_logmap", "concurrency",
                    [P("t", 25000, "ttt", "terms"), P("s", 10, "sss", "series"), P("r", 3.46, "rrr", "start_rate")]),
    "banking": Bench("savina_15_banking", "concurrency", [P("a", 1000, "aaa", "accounts"), P("n", 50000, "nnn", "transactions")]),
    "radixsort": Bench("savina_16_radixsort", "parallelism",
                       [P("n", 100000, "nnn", "n"), P("m", 1 << 60, "mmm", "m"), P("s", 2048, "sss", None)]),
    "sieve": Bench("savina_18_sieve", "parallelism", [P("n", 100000, "nnn", "n"), P("m", 1000, "mmm", "m")]),
    "facloc": Bench("savina_20_facloc", "parallelism",
                    [P("n", 100000, "nnn", "num_points"), P("g", 500.0, "ggg", "grid_size"), P("a", 2.0, "aaa", "alpha"),
                     P("s", 123456, "sss", None), P("c", 3, "ccc", None)]),
    "trapezoid": Bench("savina_21_trapezoid", "parallelism",
                       [P("n", 10000000, "nnn", "n"), P("w", 100, "www", "w"), P("l", 1.0, "lll", "l"),
                        P("r", 5.0, "rrr", "r")]),
    "recmatmul": Bench("savina_23_recmatmul", "parallelism",
                       [P("n", 1024, "nnn", "data_length"), P("t", 16384, "ttt", "block_threshold"), P("w", 20, "www", "workers")]),
    "quicksort": Bench("savina_24_quicksort", "parallelism",
                       [P("n", 1000000, "nnn", "n"), P("m", 1 << 60, "mmm", "m"), P("t", 2048, "ttt", "t"),
                        P("s", 1024, "sss", None)]),
    "apsp": Bench("savina_25_apsp", "parallelism", [P("n", 300, "nnn", "n"), P("b", 50, "bbb", "b"), P("w", 100, "www", "w")]),
    "nqueenk": Bench("savina_28_nqueenk", "parallelism",
                     [P("n", 12, "nnn", "size"), P("w", 20, "www", "workers"), P("t", 4, "ttt", "threshold"),
                      P("s", 1500000, "sss", "solutions_limit")]),
    "fib": Bench("savina_29_fib", "parallelism", [P("n", 25, "nnn", "n")]),
    "bitonicsort": Bench("savina_30_bitonicsort", "parallelism",
                         [P("n", 4096, "nnn", "n"), P("m", 1 << 60, "mmm", "m"), P("s", 2048, "sss", None)]),
}


class Bad(Exception):
    """A bad option, name, path or parameter: exit 2 before any launch."""


def parse_sets(items):
    """--set NAME:PARAM=VALUE ... -> {name: {savina_param: value}}"""
    sets = {}
    for item in items:
        m = re.fullmatch(r"([a-z]+):([A-Za-z_]+)=(\S+)", item)
        if not m:
            raise Bad(f"--set '{item}': expected NAME:PARAM=VALUE, e.g. fib:n=20")
        name, key, value = m.group(1), m.group(2).lower(), m.group(3)
        if name not in BENCHES:
            raise Bad(f"--set '{item}': no benchmark '{name}'")
        known = {p.savina for p in BENCHES[name].params}
        if key not in known:
            raise Bad(f"--set '{item}': {name} has no Savina parameter '{key}' ({', '.join(sorted(known))})")
        try:
            float(value)
        except ValueError:
            raise Bad(f"--set '{item}': '{value}' is not a number")
        sets.setdefault(name, {})[key] = value
    return sets


def scenario_file(name):
    return os.path.join(TOP, "scenarios", "savina", f"{name}.toml")


def plan(args):
    """The benchmarks to run: [(name, twinsched args, CAF args)], and the notes on those left out."""
    names = list(BENCHES)
    if args.only:
        names = [n.strip() for n in args.only.split(",") if n.strip()]
        for n in names:
            if n not in BENCHES:
                raise Bad(f"--only: no benchmark '{n}' (CAF ported: {', '.join(BENCHES)})")
    sets = parse_sets(args.set or [])
    listing = subprocess.run([args.twinsched, "list", "workloads"], capture_output=True, text=True).stdout
    known = set(re.findall(r"^(\S+)\s", listing, flags=re.M))
    runs, skipped = [], []
    for name in names:
        b = BENCHES[name]
        caf = os.path.join(args.caf, b.caf)
        scen = scenario_file(name)
        why = None
        if not os.access(caf, os.X_OK):
            why = f"no CAF port at {caf} (it does not build, or build.sh was not run)"
        elif not os.path.exists(scen):
            why = f"no twinsched scenario {os.path.relpath(scen, TOP)} yet"
        elif f"savina-{name}" not in known:
            why = f"this twinsched has no workload savina-{name} (`twinsched list workloads`)"
        if why:
            if args.only:
                raise Bad(f"{name}: {why}")
            skipped.append((name, why))
            continue
        with open(scen, "rb") as f:
            own = tomllib.load(f).get("workload", {})
        ours, theirs = [], []
        for p in b.params:
            value = sets.get(name, {}).get(p.savina, str(p.default))
            theirs.append(f"--{p.caf}={value}")
            if p.ours is None:
                if p.savina in sets.get(name, {}):
                    raise Bad(f"--set {name}:{p.savina}: twinsched has no parameter for Savina's -{p.savina}")
                continue
            if p.ours not in own:
                raise Bad(f"{name}: twinsched's scenario has no parameter '{p.ours}' for Savina's -{p.savina} "
                          f"(its parameters: {', '.join(k for k in own if k != 'kind')})")
            ours += ["--param", f"{p.ours}={value}"]
        runs.append((name, ours, theirs))
    return runs, skipped


def load():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def line_ns(args, tmp):
    """The host's line transfer now (ns), by twinsched calibrate --quick; None if it says nothing."""
    out = os.path.join(tmp, "calibrate.out")
    with open(out, "w") as f:
        subprocess.run([args.twinsched, "calibrate", "--quick", "-o", os.path.join(tmp, "machine.toml")],
                       stdout=f, stderr=subprocess.STDOUT)
    with open(out) as f:
        m = re.search(r"line transfer ([0-9.]+) ns", f.read())
    return float(m.group(1)) if m else None


def launch(cmd, out_path, timeout):
    """Runs cmd with its output into out_path; returns (wall seconds, exit code or None on timeout)."""
    with open(out_path, "w") as out:
        start = time.perf_counter()
        try:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        except OSError as e:  # e.g. the binary is being rebuilt under us
            out.write(f"could not start {cmd[0]}: {e}\n")
            return time.perf_counter() - start, -1
        # A blocking wait, and a timer thread for the timeout: Popen.wait(timeout=...) polls with
        # sleeps that grow to 50 ms, which rounded every launch up to the next poll.
        timed_out = threading.Event()

        def expire():
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, expire)
        timer.start()
        rc = proc.wait()
        wall = time.perf_counter() - start
        timer.cancel()
    return wall, (None if timed_out.is_set() else rc)


def run_ours(args, name, params, workers, out_path, policy):
    cmd = [args.twinsched, "run", scenario_file(name), "--workers", str(workers), "--json"] + params
    if policy:
        cmd += ["--policy", policy]
    wall, rc = launch(cmd, out_path, args.timeout)
    with open(out_path) as f:
        output = f.read()
    rec = {"side": "twinsched", "command": cmd, "wall_s": wall, "rc": rc}
    try:
        summary = json.loads(output[output.index("{"):output.rindex("}") + 1])
    except ValueError:
        summary = {}
    rec.update(run_s=summary.get("wall_s"), messages=summary.get("messages"), expected_messages=summary.get("expected_messages"),
               verdict_ok=summary.get("ok"), detail=summary.get("detail", ""), failure=summary.get("failure", ""))
    rec["ok"] = rc == 0 and summary.get("ok") is True
    if not rec["ok"]:
        rec["why"] = ("timed out" if rc is None else f"exit {rc}") + \
            (f", verdict not OK: {summary.get('failure') or 'see output'}" if summary and summary.get("ok") is not True
             else "" if summary else ", no JSON summary") + ": " + output.strip()[-300:]
    rec["report"] = (f"{summary.get('messages')} messages (expected {summary.get('expected_messages')})"
                     + (f"; {rec['detail']}" if rec["detail"] else "")
                     + f"; verdict {'OK' if summary.get('ok') else 'FAILED'}") if summary else "no summary"
    return rec


def run_caf(args, name, params, workers, out_path):
    cmd = [os.path.join(args.caf, BENCHES[name].caf), f"--scheduler.max-threads={workers}"] + params
    wall, rc = launch(cmd, out_path, args.timeout)
    with open(out_path) as f:
        output = f.read()
    rec = {"side": "caf", "command": cmd, "wall_s": wall, "rc": rc}
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    rec["report"] = "; ".join(lines[:3]) if lines else "(prints nothing)"
    rec["ok"] = rc == 0 and "ERROR" not in output
    if not rec["ok"]:
        rec["why"] = ("timed out" if rc is None else f"exit {rc}" if rc else "printed ERROR") + ": " + output.strip()[-300:]
    return rec


def spread(walls):
    return statistics.median(walls), min(walls), max(walls)


def fmt_s(x):
    return f"{x:.3f}" if x < 10 else f"{x:.2f}"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.error = lambda msg: (print(f"savina_vs_caf: {msg}", file=sys.stderr), sys.exit(2))
    p.add_argument("--twinsched", default=os.path.join(TOP, "build", "cli", "twinsched"))
    p.add_argument("--caf", default=os.environ.get("CAF_SAVINA_BIN", os.path.join(TOP, "..", "caf-savina-bin")),
                   help="the folder build.sh built the CAF ports into (default ../caf-savina-bin, or $CAF_SAVINA_BIN)")
    p.add_argument("--rounds", type=int, default=5, help="launches of each side per benchmark and worker count")
    p.add_argument("--workers", default="1,2", help="worker counts, comma-separated (both sides)")
    p.add_argument("--policy", help="twinsched's policy (default: the scenario's); a comma-separated list runs each "
                   "against the same CAF launches, the first in the ratio column, and adds the best of them")
    p.add_argument("--only", help="these benchmarks, comma-separated (default: every one both sides have)")
    p.add_argument("--set", action="append", metavar="NAME:PARAM=VALUE",
                   help="a Savina parameter's value for one benchmark, on both sides (e.g. fib:n=20)")
    p.add_argument("--timeout", type=float, default=300, help="seconds a launch may take before it counts as failed")
    p.add_argument("--no-host", action="store_true", help="do not measure the line transfer around each benchmark")
    p.add_argument("--json", metavar="FILE", help="write every launch, the rows and the host state to FILE")
    p.add_argument("--out", metavar="FILE", help="write the printed text to FILE too")
    p.add_argument("--list", action="store_true", help="print each benchmark's parameters on both sides and exit")
    args = p.parse_args()
    try:
        if args.list:
            for name, b in BENCHES.items():
                ps = ", ".join(f"-{x.savina} {x.default} = CAF --{x.caf} = twinsched {x.ours or '(none)'}" for x in b.params)
                print(f"{name:12s} {b.group:12s} {b.caf:22s} {ps}")
            return 0
        if args.rounds < 1:
            raise Bad("--rounds must be at least 1")
        try:
            workers = [int(w) for w in args.workers.split(",")]
        except ValueError:
            raise Bad(f"--workers '{args.workers}': expected counts like 1,2")
        if not workers or min(workers) < 1:
            raise Bad(f"--workers '{args.workers}': each count must be at least 1")
        args.twinsched = os.path.abspath(args.twinsched)
        args.caf = os.path.abspath(args.caf)
        if not os.access(args.twinsched, os.X_OK):
            raise Bad(f"no twinsched at {args.twinsched} (build it, or pass --twinsched)")
        if not os.path.isdir(args.caf):
            raise Bad(f"no folder {args.caf} (build the CAF ports with ../shared/peers/caf-savina/build.sh, or pass --caf)")
        for path in (args.json, args.out):
            if path and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
                raise Bad(f"cannot write {path}: no such folder")
        args.policies = [x for x in args.policy.split(",") if x] if args.policy else [None]
        if not args.policies or len(set(args.policies)) != len(args.policies):
            raise Bad(f"--policy '{args.policy}': expected distinct policy names, comma-separated")
        runs, skipped = plan(args)
        if not runs:
            raise Bad("no benchmark that both sides have" + "".join(f"; {n}: {w}" for n, w in skipped))
    except Bad as e:
        print(f"savina_vs_caf: {e}", file=sys.stderr)
        return 2

    host = {"load_before": load(), "nproc": os.cpu_count()}
    launches, rows, failed = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, ours, theirs in runs:
            before = None if args.no_host else line_ns(args, tmp)
            bench_rows = []
            for w in workers:
                # one list per side: CAF, and twinsched under each policy (the first is "twinsched")
                sides = ["twinsched"] + [f"twinsched:{pol}" for pol in args.policies[1:]]
                recs = {side: [] for side in sides + ["caf"]}
                ok, failed_side = True, None
                for r in range(args.rounds):
                    order = sides + ["caf"] if (r + w) % 2 == 0 else ["caf"] + sides
                    for side in order:
                        policy = args.policies[sides.index(side)] if side in sides else None
                        print(f"savina_vs_caf: {name}, {w} workers, round {r + 1}/{args.rounds}, {side}",
                              file=sys.stderr, flush=True)
                        out = os.path.join(tmp, "side.out")
                        rec = (run_ours(args, name, ours, w, out, policy) if side in sides
                               else run_caf(args, name, theirs, w, out))
                        rec.update(benchmark=name, workers=w, round=r + 1, first=order[0] == side)
                        if policy:
                            rec["policy"] = policy
                        rec["side"] = "caf" if side == "caf" else "twinsched"
                        launches.append(rec)
                        recs[side].append(rec)
                        if not rec["ok"]:
                            ok = False
                            failed_side = rec["side"]
                            failed.append(f"{name}, {w} workers, {side}: {rec['why']}")
                            print(f"savina_vs_caf: FAILED {failed[-1]}", file=sys.stderr, flush=True)
                            break
                    if not ok:
                        break
                row = {"benchmark": name, "group": BENCHES[name].group, "workers": w, "ok": ok, "failed": failed_side,
                       "twinsched_report": recs["twinsched"][-1]["report"] if recs["twinsched"] else "",
                       "caf_report": recs["caf"][-1]["report"] if recs["caf"] else ""}
                if ok:
                    om, omin, omax = spread([x["wall_s"] for x in recs["twinsched"]])
                    cm, cmin, cmax = spread([x["wall_s"] for x in recs["caf"]])
                    row.update(twinsched_s={"median": om, "min": omin, "max": omax},
                               twinsched_run_s=statistics.median(x["run_s"] for x in recs["twinsched"]),
                               caf_s={"median": cm, "min": cmin, "max": cmax}, ratio=cm / om)
                    if len(sides) > 1:  # each policy's median, and the fastest
                        row["policies"] = {pol: {"median": statistics.median(x["wall_s"] for x in recs[side])}
                                           for pol, side in zip(args.policies, sides)}
                        for v in row["policies"].values():
                            v["ratio"] = cm / v["median"]
                        row["best_policy"] = min(row["policies"], key=lambda k: row["policies"][k]["median"])
                        row["best_ratio"] = row["policies"][row["best_policy"]]["ratio"]
                bench_rows.append(row)
            after = None if args.no_host else line_ns(args, tmp)
            for row in bench_rows:
                row["line_transfer_ns"] = {"before": before, "after": after}
            rows += bench_rows
    host["load_after"] = load()

    many = len(args.policies) > 1
    lines = [f"twinsched {args.twinsched} (policy {args.policies[0] or 'the scenario default'}"
             + (f"; also {', '.join(args.policies[1:])}, the best of them in the last column" if many else "")
             + ") against CAF's Savina ports "
             f"in {args.caf}; {args.rounds} rounds, launches alternated; wall time of each process, s",
             f"host: {host['nproc']} CPUs, load average {host['load_before']} before, {host['load_after']} after", "",
             "| benchmark | workers | twinsched s, median (min-max) | CAF s, median (min-max) | ratio CAF/twinsched "
             "| twinsched's run alone, s | line transfer ns, before-after |" + (" best policy: ratio |" if many else ""),
             "|---|---|---|---|---|---|---|" + ("---|" if many else "")]
    for row in rows:
        lt = row["line_transfer_ns"]
        host_cell = "not measured" if args.no_host else \
            f"{lt['before'] if lt['before'] is not None else '?'}-{lt['after'] if lt['after'] is not None else '?'}"
        if row["ok"]:
            o, c = row["twinsched_s"], row["caf_s"]
            lines.append(f"| {row['benchmark']} | {row['workers']} | {fmt_s(o['median'])} ({fmt_s(o['min'])}-{fmt_s(o['max'])}) "
                         f"| {fmt_s(c['median'])} ({fmt_s(c['min'])}-{fmt_s(c['max'])}) | {row['ratio']:.2f}x "
                         f"| {fmt_s(row['twinsched_run_s'])} | {host_cell} |"
                         + (f" {row['best_policy']}: {row['best_ratio']:.2f}x |" if many else ""))
        else:
            cells = ["FAILED" if row["failed"] == side else "-" for side in ("twinsched", "caf")]
            lines.append(f"| {row['benchmark']} | {row['workers']} | {cells[0]} | {cells[1]} | - | - | {host_cell} |"
                         + (" - |" if many else ""))
    lines.append("")
    summary = {}
    for label, pick in [("all", lambda r: True), ("micro", lambda r: r["group"] == "micro"),
                        ("concurrency", lambda r: r["group"] == "concurrency"),
                        ("parallelism", lambda r: r["group"] == "parallelism")]:
        for w in [None] + workers:
            chosen = [r for r in rows if r["ok"] and pick(r) and (w is None or r["workers"] == w)]
            ratios = [r["ratio"] for r in chosen]
            if ratios:
                key = f"{label}, {'all worker counts' if w is None else f'{w} workers'}"
                summary[key] = {"geomean": geomean(ratios), "min": min(ratios), "rows": len(ratios)}
                if many:
                    best = [r["best_ratio"] for r in chosen]
                    summary[key].update(best_geomean=geomean(best), best_min=min(best))
    for key, s in summary.items():
        lines.append(f"geometric mean of the ratios, {key}: {s['geomean']:.2f}x over {s['rows']} rows (lowest {s['min']:.2f}x)"
                     + (f"; best policy each: {s['best_geomean']:.2f}x (lowest {s['best_min']:.2f}x)" if many else ""))
    slower = [f"{r['benchmark']} at {r['workers']}" for r in rows if r["ok"] and r["ratio"] < 1]
    lines.append("twinsched slower than CAF: " + (", ".join(slower) if slower else "none"))
    if many:
        slower = [f"{r['benchmark']} at {r['workers']}" for r in rows if r["ok"] and r["best_ratio"] < 1]
        lines.append("twinsched's best policy slower than CAF: " + (", ".join(slower) if slower else "none"))
    lines += ["", "What each side reported (the last launch of each side, per benchmark and worker count):", "",
              "| benchmark | workers | twinsched | CAF port's output |", "|---|---|---|---|"]
    for row in rows:
        lines.append(f"| {row['benchmark']} | {row['workers']} | {row['twinsched_report']} | {row['caf_report']} |")
    for name, why in skipped:
        lines.append(f"not compared: {name}: {why}")
    for f in failed:
        lines.append(f"FAILED: {f}")
    report = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"twinsched": args.twinsched, "caf": args.caf, "policy": args.policy, "rounds": args.rounds,
                       "host": host, "rows": rows, "summary": summary, "launches": launches,
                       "skipped": [{"benchmark": n, "why": w} for n, w in skipped]}, f, indent=1)
    sys.stdout.write(report)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
