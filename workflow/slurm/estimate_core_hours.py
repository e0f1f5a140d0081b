#!/usr/bin/env python3
"""Estimate the core-hours of a preset from the benchmark files of a smaller local run.

    python workflow/slurm/estimate_core_hours.py BENCH_DIR DRYRUN_LOG [RULE=FACTOR ...]

BENCH_DIR   logs/bench/ of a finished local run (default preset preferred, smoke works).
DRYRUN_LOG  output of `snakemake -n --config preset=paper` (every job with its wildcards).

Method: every job is single-threaded, so its wall time `s` in the benchmark file is its
core-seconds.  For each rule, fit  s = a + b*T  by least squares over that rule's benchmark
files (T = the last `T<number>` in the file name, i.e. the job's horizon; a = start-up and
fixed cost).  Each job of the dry run is then predicted from its own T wildcard; a job or rule
without T gets the rule's mean.  The per-job cost of a chunk does not depend on the number
of replicates (chunk_size is fixed), so the dry run's job count carries the replicate scaling.
RULE=FACTOR multiplies a rule's variable cost for a size the job name does not show
(e.g. audit_run=40: paper draws 4e6 samples, smoke 1e5).
Linear-in-T extrapolation beyond the measured horizons is the main uncertainty.
"""
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

bench_dir, dry_log = Path(sys.argv[1]), Path(sys.argv[2])
FACTOR = {k: float(v) for k, v in (a.split("=", 1) for a in sys.argv[3:])}
T_RES = (re.compile(r"(?:^|_)T_?(\d+)"), re.compile(r"^rates_[a-z_]+:(\d+)"))
CHUNK_RE = re.compile(r"(\d+)-(\d+)$")


def horizon(key):
    for rx in T_RES:
        hits = rx.findall(key)
        if hits:
            return float(hits[-1])
    return None


def reps(key):
    m = CHUNK_RE.search(key)
    return float(int(m.group(2)) - int(m.group(1))) if m else 1.0


# the dry run: (rule, key, T, replicates) per job; key = wildcard values joined by "_",
# which is how the benchmark files of this workflow are named
jobs, rules = [], set()
for line in dry_log.read_text().splitlines():
    line = line.strip()
    m = re.match(r"^(?:local)?rule (\w+):", line)
    if m:
        jobs.append([m.group(1), "", None, 1.0]); rules.add(m.group(1)); continue
    m = re.match(r"^wildcards: (.*)", line)
    if m and jobs:
        wc = dict(kv.split("=", 1) for kv in m.group(1).split(", ") if "=" in kv)
        key = "_".join(wc.values())
        jobs[-1][1] = key
        jobs[-1][2] = float(wc["T"]) if wc.get("T", "").isdigit() else horizon(key)
        jobs[-1][3] = reps(key)

# the benchmarks: rule -> [(T, replicates, seconds)]
obs = defaultdict(list)
for f in bench_dir.rglob("*.tsv"):
    if f.parent != bench_dir:
        rule, key = f.parent.name, f.stem
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

per_rule = defaultdict(lambda: [0, 0.0])
missing = set()
for rule, key, T, r in jobs:
    if rule == "all":
        continue
    if rule not in models:
        missing.add(rule); continue
    a, b, c = models[rule]
    f = FACTOR.get(rule, 1.0)
    sec = a + f * (b * r * T if (b is not None and T is not None) else c * r)
    per_rule[rule][0] += 1
    per_rule[rule][1] += sec

total = sum(v[1] for v in per_rule.values())
print(f"{'rule':28s} {'jobs':>5s} {'core-h':>8s}")
for rule, (n, sec) in sorted(per_rule.items(), key=lambda kv: -kv[1][1]):
    print(f"{rule:28s} {n:5d} {sec / 3600:8.2f}")
print(f"{'TOTAL':28s} {sum(v[0] for v in per_rule.values()):5d} {total / 3600:8.2f}")
if missing:
    print("no benchmark for:", ", ".join(sorted(missing)))
