#!/usr/bin/env python3
"""Estimate the core-hours of a preset from the benchmark files of a smaller local run.

    python workflow/slurm/estimate_core_hours.py BENCH_DIR DRYRUN_LOG [RULE=FACTOR ...] [--nodes 1,4,16] [--cores 32]
                                                 [--measured PAPER_BENCH_DIR]

BENCH_DIR   logs/bench/ of a finished local run (default preset preferred, smoke works).
DRYRUN_LOG  output of `snakemake -n --config preset=paper` (every job with its wildcards).

Method: every job is single-threaded, so its wall time `s` in the benchmark file is its
core-seconds.  For each rule, fit  s = a + b*T  by least squares over that rule's benchmark
files (T = the last `T<number>` in the file name, i.e. the job's horizon; a = start-up and
fixed cost).  Each job of the dry run is then predicted from its own T wildcard; a job or rule
without T gets the rule's mean.  The per-job cost of a chunk does not depend on the number
of replicates (chunk_size is fixed), so the dry run's job count carries the replicate scaling.
RULE=FACTOR multiplies a rule's variable cost for a size the job name does not show (an extrapolated rule's only)
(e.g. audit_run=40: paper draws 4e6 samples, smoke 1e5).
Linear-in-T extrapolation beyond the measured horizons is the main uncertainty, and a rule whose job
names carry no horizon (one job per experiment: Zhang-Tran-Cutkosky's, Van der Hoeven's) is predicted
at the smaller run's size.  ``--measured DIR``: benchmark files of jobs run at the target preset itself
(``logs/bench/`` of a run of one job per rule, e.g. ``snakemake --cores 1 --config preset=paper <one
output>``); a rule measured there is predicted from those jobs alone (one job: every job of the rule
costs its measured core-seconds, scaled by T x replicates where the names carry them), the others
from BENCH_DIR as above; the table marks each rule's source.

Then the run's shape: the DAG from the dry run's input/output lines, its critical path (the longest chain
of predicted job times: no number of nodes finishes sooner) and the wall time on k nodes of ``--cores``
cores each (default 1, 4, 16 nodes of 32 cores), by list scheduling (a free core takes the ready job with the
longest path to the end, every job one core, as the workflow's jobs are single-threaded); SLURM's queueing
and start-up are not in it.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

import heapq

args = sys.argv[1:]
NODES, CORES = [1, 4, 16], 32
MEASURED = None
for flag in ("--nodes", "--cores", "--measured"):
    if flag in args:
        i = args.index(flag)
        value = args.pop(i + 1)
        args.pop(i)
        if flag == "--measured":
            MEASURED = Path(value)
        else:
            NODES, CORES = ([int(k) for k in value.split(",")], CORES) if flag == "--nodes" else (NODES, int(value))
bench_dir, dry_log = Path(args[0]), Path(args[1])
FACTOR = {k: float(v) for k, v in (a.split("=", 1) for a in args[2:])}
T_RES = (re.compile(r"(?:^|_)T_?(\d+)"), re.compile(r"^rates_[a-z_]+:(\d+)"))
CHUNK_RE = re.compile(r"(\d+)-(\d+)$")


def horizon(key):
    for rx in T_RES:
        hits = [h for h in rx.findall(key) if int(h) > 0]  # "T_0-16": a chunk of a job over every T, no horizon
        if hits:
            return float(hits[-1])
    return None


def reps(key):
    m = CHUNK_RE.search(key)
    return float(int(m.group(2)) - int(m.group(1))) if m else 1.0


# the dry run: (rule, key, T, replicates, inputs, outputs) per job; key = wildcard values joined by "_",
# which is how the benchmark files of this workflow are named
jobs, rules = [], set()
for line in dry_log.read_text().splitlines():
    line = line.strip()
    m = re.match(r"^(?:local)?rule (\w+):", line)
    if m:
        jobs.append([m.group(1), "", None, 1.0, [], []]); rules.add(m.group(1)); continue
    m = re.match(r"^(input|output): (.*)", line)
    if m and jobs:
        jobs[-1][4 if m.group(1) == "input" else 5] = m.group(2).split(", ")
        continue
    m = re.match(r"^wildcards: (.*)", line)
    if m and jobs:
        wc = dict(kv.split("=", 1) for kv in m.group(1).split(", ") if "=" in kv)
        key = "_".join(wc.values())
        jobs[-1][1] = key
        jobs[-1][2] = float(wc["T"]) if wc.get("T", "").isdigit() else horizon(key)
        jobs[-1][3] = reps(key)

# the benchmarks: rule -> [(T, replicates, seconds)]
def read_benchmarks(bench_dir: Path) -> dict:
    obs = defaultdict(list)
    for f in bench_dir.rglob("*.tsv"):
        tokens = f.stem.split("_")
        cands = [r for r in rules if f.parent != bench_dir and r.startswith(f.parent.name + "_") and
                 (f.stem == r[len(f.parent.name) + 1:] or r[len(f.parent.name) + 1:] in tokens)]
        if cands:  # a rule per experiment or grid: logs/bench/<prefix>/<its name>[_<wildcards>].tsv
            rule = max(cands, key=len)
            key = "" if f.stem == rule[len(f.parent.name) + 1:] else f.stem
        elif f.parent != bench_dir and f.parent.name in rules:
            rule, key = f.parent.name, f.stem
        elif f.parent != bench_dir:
            continue
        else:  # single-job rules: logs/bench/<rule>[_<suffix>].tsv
            cands = [r for r in rules if f.stem == r or f.stem.startswith(r + "_")]
            if not cands:
                continue
            rule, key = max(cands, key=len), ""
        lines = f.read_text().splitlines()
        if len(lines) < 2:
            continue
        obs[rule].append((horizon(key) if key else None, reps(key) if key else 1.0,
                          float(lines[1].split("\t")[0])))
    return obs


obs = read_benchmarks(bench_dir)
measured = read_benchmarks(MEASURED) if MEASURED else {}

# per rule: s = a + b * r * T for jobs with a horizon, s = a + c * r otherwise
models = {}
for rule, xs in obs.items():
    S = np.array([s for _, _, s in xs])
    a = float(S.min()) * 0.5  # fixed start-up cost (imports), refined by the fit below
    b = None
    wt = [(t * r, s) for t, r, s in xs if t is not None]
    if len(wt) >= 3 and len({x for x, _ in wt}) >= 2:
        b_fit, a_fit = np.polyfit([x for x, _ in wt], [s for _, s in wt], 1)
        if b_fit > 0:
            a, b = max(float(a_fit), 0.0), float(b_fit)
    c = float(np.mean([(s - a) / r for _, r, s in xs]))
    models[rule] = (a, b, max(c, 0.0))
for rule, xs in measured.items():  # measured at the target preset: these jobs alone decide the rule's model
    S = np.array([s for _, _, s in xs])
    a = 0.0  # the measured jobs carry their start-up cost inside s
    wt = [(t * r, s) for t, r, s in xs if t is not None]
    b = float(np.mean([s / x for x, s in wt])) if wt else None
    models[rule] = (a, b, float(np.mean([s / r for _, r, s in xs])))

per_rule = defaultdict(lambda: [0, 0.0])
missing = set()
seconds = []  # per job of the dry run, its predicted core-seconds (0 for `all` and rules without benchmark)
for rule, key, T, r, _, _ in jobs:
    seconds.append(0.0)
    if rule == "all":
        continue
    if rule not in models:
        missing.add(rule); continue
    a, b, c = models[rule]
    f = 1.0 if rule in measured else FACTOR.get(rule, 1.0)  # a measured job is at the target's size already
    sec = a + f * (b * r * T if (b is not None and T is not None) else c * r)
    seconds[-1] = sec
    per_rule[rule][0] += 1
    per_rule[rule][1] += sec

total = sum(v[1] for v in per_rule.values())
print(f"{'rule':28s} {'jobs':>5s} {'core-h':>8s}  model from")
for rule, (n, sec) in sorted(per_rule.items(), key=lambda kv: -kv[1][1]):
    src = f"measured ({len(measured[rule])} job(s))" if rule in measured else "extrapolated"
    print(f"{rule:28s} {n:5d} {sec / 3600:8.2f}  {src}")
print(f"{'TOTAL':28s} {sum(v[0] for v in per_rule.values()):5d} {total / 3600:8.2f}")
if missing:
    print("no benchmark for:", ", ".join(sorted(missing)))


# the DAG: job j needs job i when an input of j is an output of i
made_by = {out: i for i, job in enumerate(jobs) for out in job[5]}
needs = [sorted({made_by[f] for f in job[4] if f in made_by}) for job in jobs]
users = defaultdict(list)
for j, deps in enumerate(needs):
    for i in deps:
        users[i].append(j)
order, indeg = [], [len(d) for d in needs]
ready = [j for j, d in enumerate(indeg) if d == 0]
while ready:  # topological order
    i = ready.pop()
    order.append(i)
    for j in users[i]:
        indeg[j] -= 1
        if indeg[j] == 0:
            ready.append(j)
tail = [0.0] * len(jobs)  # the longest path from a job's start to the end of the run
for i in reversed(order):
    tail[i] = seconds[i] + max((tail[j] for j in users[i]), default=0.0)
crit = max(tail, default=0.0)
path, i = [], max(range(len(jobs)), key=tail.__getitem__)
while True:
    path.append(jobs[i][0])
    nxt = [j for j in users[i]]
    if not nxt:
        break
    i = max(nxt, key=tail.__getitem__)
print(f"\ncritical path {crit / 3600:.2f} h ({len(path)} jobs: " + " -> ".join(dict.fromkeys(path)) + ")")


def wall(cores: int) -> float:
    """List scheduling on ``cores`` single-core slots: a free slot takes the ready job with the longest tail."""
    left = [len(d) for d in needs]
    ready = [(-tail[j], j) for j, d in enumerate(left) if d == 0]
    heapq.heapify(ready)
    running, now, free = [], 0.0, cores
    while ready or running:
        while ready and free:
            _, j = heapq.heappop(ready)
            heapq.heappush(running, (now + seconds[j], j))
            free -= 1
        now, i = heapq.heappop(running)
        free += 1
        for j in users[i]:
            left[j] -= 1
            if left[j] == 0:
                heapq.heappush(ready, (-tail[j], j))
    return now


for k in NODES:
    w = wall(k * CORES)
    print(f"{k:3d} node(s) x {CORES} cores: wall {w / 3600:6.2f} h (lower bounds: critical path {crit / 3600:.2f} h, "
          f"core-hours / cores {total / 3600 / (k * CORES):.2f} h)")
